import { SHELLCHECK_INSTALL, testWithBinary } from '../support/external-binary';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { NodePrepStep } from '../../stacks/node-config/extensions';
import { KUBELET_EVICTION_EXIT, kubeletEvictionStepProvider } from '../../stacks/node-config/kubelet-eviction-step';
import { scratchDir } from '../support/scratch-dir';

/**
 * Runs the step's host script for real, the way the node-prep pod does (`sh -s -- apply|verify`
 * with the script on stdin and the step's env), against a scratch root. Stubs on PATH log their
 * calls: `systemctl` (the stub kubelet is down while the installed drop-in holds the threshold
 * the test calls bad), `curl` (healthz, same rule), `systemd-run` (applies --setenv, then runs the
 * command), `sleep` (no wait). /proc/<kubelet pid>/cmdline lives under the scratch root too.
 */
const CONFIG_DROP_IN = 'etc/kubernetes/kubelet.conf.d/50-ballast-eviction.conf';
const SYSTEMD_DROP_IN = 'etc/systemd/system/kubelet.service.d/20-ballast-eviction.conf';
const BAD = 'nodefs.available: "7%"';
const KUBELET_PID = '4242';

function stepFor(raw: Record<string, unknown>): NodePrepStep {
  const [step] = kubeletEvictionStepProvider.steps(kubeletEvictionStepProvider.parse(raw, 'test'), {
    name: 'small-disk',
    nodes: ['worker-1'],
  });
  if (!step) throw new Error('the kubelet eviction provider made no step');
  return step;
}
const good = stepFor({ kubernetesVersion: '1.31', hard: { 'nodefs.available': '5%' } });
const changed = stepFor({ kubernetesVersion: '1.31', hard: { 'nodefs.available': '6%' } });
const bad = stepFor({ kubernetesVersion: '1.31', hard: { 'nodefs.available': '7%' } });

function scratchNode(options: { kubeletArgs?: string[]; withSystemdRun?: boolean } = {}) {
  const dir = scratchDir('ballast-eviction-step');
  const root = path.join(dir, 'root');
  const bin = path.join(dir, 'bin');
  const log = path.join(dir, 'calls.log');
  fs.mkdirSync(bin, { recursive: true });
  fs.mkdirSync(path.join(root, 'proc', KUBELET_PID), { recursive: true });
  const args = options.kubeletArgs ?? [
    '/usr/bin/kubelet',
    '--config=/var/lib/kubelet/config.yaml',
    '--config-dir=/etc/kubernetes/kubelet.conf.d',
  ];
  fs.writeFileSync(path.join(root, 'proc', KUBELET_PID, 'cmdline'), `${args.join('\0')}\0`);
  const down = `grep -qF '${BAD}' "${root}/${CONFIG_DROP_IN}" 2>/dev/null`;
  fs.writeFileSync(
    path.join(bin, 'systemctl'),
    `#!/bin/sh
echo "systemctl $*" >> "${log}"
case "$1" in
  is-active) ! ${down} ;;
  show) echo ${KUBELET_PID} ;;
esac
`,
    { mode: 0o755 },
  );
  fs.writeFileSync(path.join(bin, 'curl'), `#!/bin/sh\necho "curl $*" >> "${log}"\n! ${down}\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(bin, 'sleep'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  if (options.withSystemdRun !== false) {
    fs.writeFileSync(
      path.join(bin, 'systemd-run'),
      `#!/bin/sh
echo "systemd-run $*" >> "${log}"
while [ "$#" -gt 0 ]; do
  case "$1" in
    --setenv=*) export "\${1#--setenv=}" ;;
    --*) ;;
    *) break ;;
  esac
  shift
done
exec "$@"
`,
      { mode: 0o755 },
    );
  }
  const run = (step: NodePrepStep, mode: 'apply' | 'verify', extraPath = '/usr/bin:/bin') => {
    const result = spawnSync('sh', ['-s', '--', mode], {
      input: step.script,
      encoding: 'utf8',
      env: {
        ...step.env,
        PATH: `${bin}:${extraPath}`,
        ROOT: root,
        HEALTH_TIMEOUT: '4',
        HEALTH_INTERVAL: '1',
        HEALTHY_CHECKS: '2',
      },
    });
    return { status: result.status, stderr: result.stderr };
  };
  const calls = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []);
  const restarts = () => calls().filter((call) => call === 'systemctl restart kubelet');
  const clearCalls = () => fs.rmSync(log, { force: true });
  const installed = (file = CONFIG_DROP_IN) =>
    fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), 'utf8') : undefined;
  return { run, calls, restarts, clearCalls, installed, root, bin };
}
const rendered = (step: NodePrepStep) => {
  const match = /\) printf '%s' '([^']*)' ;;/.exec(step.script);
  if (!match) throw new Error('no rendered file in the step script');
  return match[1];
};

describe('the kubelet eviction step on a node', () => {
  test('first install: writes the drop-in, restarts the kubelet once in a transient unit, then verifies', () => {
    const node = scratchNode();
    const result = node.run(good, 'apply');
    expect(result.stderr).toContain('applied: kubelet healthy');
    expect(result.status).toBe(0);
    expect(node.installed()).toBe(rendered(good));
    expect(node.restarts()).toEqual(['systemctl restart kubelet']);
    expect(node.calls()).toContain('systemctl daemon-reload');
    const systemdRun = node.calls().find((call) => call.startsWith('systemd-run'));
    expect(systemdRun).toContain(
      '--unit=ballast-kubelet-eviction-small-disk --description=ballast: apply kubelet eviction drop-ins --wait --collect',
    );
    expect(systemdRun).toContain(`--setenv=BACKUP_DIR=${node.root}/var/lib/ballast/kubelet-eviction/small-disk/backup`);
    expect(fs.existsSync(path.join(node.root, 'var/lib/ballast/kubelet-eviction/small-disk/backup/changed'))).toBe(
      true,
    );
    expect(node.run(good, 'verify').status).toBe(0);
  });

  test('same content: no restart, and still verified', () => {
    const node = scratchNode();
    expect(node.run(good, 'apply').status).toBe(0);
    node.clearCalls();
    const again = node.run(good, 'apply');
    expect(again.status).toBe(0);
    expect(again.stderr).toContain('unchanged: kubelet healthy, not restarted');
    expect(node.calls().filter((call) => /daemon-reload|restart/.test(call))).toEqual([]);
    expect(node.run(good, 'verify').status).toBe(0);
  });

  test('changed content: replaces the file, restarts once; the old policy no longer verifies', () => {
    const node = scratchNode();
    expect(node.run(good, 'apply').status).toBe(0);
    node.clearCalls();
    expect(node.run(changed, 'apply').status).toBe(0);
    expect(node.installed()).toBe(rendered(changed));
    expect(node.restarts()).toEqual(['systemctl restart kubelet']);
    expect(node.run(changed, 'verify').status).toBe(0);
    const stale = node.run(good, 'verify');
    expect(stale.status).not.toBe(0);
    expect(stale.stderr).toContain('differ from content');
  });

  test('unhealthy kubelet: restores the previous file, restarts again, exits non-zero, and does not retry that content', () => {
    const node = scratchNode();
    expect(node.run(good, 'apply').status).toBe(0);
    node.clearCalls();
    const result = node.run(bad, 'apply');
    expect(result.status).toBe(KUBELET_EVICTION_EXIT.rolledBackHealthy);
    expect(result.stderr).toContain('restored /etc/kubernetes/kubelet.conf.d/50-ballast-eviction.conf');
    expect(node.installed()).toBe(rendered(good));
    expect(node.restarts()).toEqual(['systemctl restart kubelet', 'systemctl restart kubelet']);
    expect(node.run(bad, 'verify').status).not.toBe(0);
    // The pod restarts its init container: the same bad content must not restart the kubelet again.
    node.clearCalls();
    const retry = node.run(bad, 'apply');
    expect(retry.status).toBe(KUBELET_EVICTION_EXIT.refusedKnownBad);
    expect(retry.stderr).toContain('was rolled back on this node before');
    expect(node.restarts()).toEqual([]);
    expect(node.installed()).toBe(rendered(good));
    // A fixed policy is new content: it is applied.
    expect(node.run(changed, 'apply').status).toBe(0);
    expect(node.installed()).toBe(rendered(changed));
  });

  test('a bad first install is removed again: the node keeps the kubelet defaults', () => {
    const node = scratchNode();
    expect(node.run(bad, 'apply').status).toBe(KUBELET_EVICTION_EXIT.rolledBackHealthy);
    expect(node.installed()).toBeUndefined();
  });

  test('verify fails while the kubelet is unhealthy, even with the right files', () => {
    const node = scratchNode();
    expect(node.run(good, 'apply').status).toBe(0);
    fs.writeFileSync(path.join(node.bin, 'curl'), '#!/bin/sh\nexit 7\n', { mode: 0o755 });
    const result = node.run(good, 'verify');
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('the kubelet is not healthy');
  });

  test('refuses a config-dir drop-in when the running kubelet has no --config-dir: nothing written, no restart', () => {
    const node = scratchNode({ kubeletArgs: ['/usr/bin/kubelet', '--config=/var/lib/kubelet/config.yaml'] });
    const result = node.run(good, 'apply');
    expect(result.status).toBe(KUBELET_EVICTION_EXIT.configDirNotRead);
    expect(result.stderr).toContain('was not started with --config-dir=/etc/kubernetes/kubelet.conf.d');
    expect(node.installed()).toBeUndefined();
    expect(node.restarts()).toEqual([]);
    // The two-argument form counts too.
    const spaced = scratchNode({
      kubeletArgs: ['/usr/bin/kubelet', '--config-dir', '/etc/kubernetes/kubelet.conf.d/'],
    });
    expect(spaced.run(good, 'apply').status).toBe(0);
  });

  test('systemd drop-in delivery (kubelet before 1.30) needs no --config-dir', () => {
    const node = scratchNode({ kubeletArgs: ['/usr/bin/kubelet'] });
    const old = stepFor({ kubernetesVersion: '1.29', hard: { 'nodefs.available': '5%' } });
    expect(node.run(old, 'apply').status).toBe(0);
    expect(node.installed(SYSTEMD_DROP_IN)).toContain('--eviction-hard=memory.available<100Mi,nodefs.available<5%%');
    expect(node.restarts()).toEqual(['systemctl restart kubelet']);
    expect(node.run(old, 'verify').status).toBe(0);
  });

  test('without systemd-run it applies in its own process, with the same result', () => {
    const node = scratchNode({ withSystemdRun: false });
    // Only the tools the script needs, so a systemd-run of the machine running the test is not found.
    const tools = path.join(node.root, '..', 'tools');
    fs.mkdirSync(tools);
    for (const tool of [
      'sh',
      'cat',
      'cmp',
      'mkdir',
      'rm',
      'chmod',
      'dirname',
      'tr',
      'awk',
      'date',
      'find',
      'sed',
      'sort',
      'cp',
      'mv',
      'grep',
      'printf',
    ]) {
      const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      if (found.startsWith('/')) fs.symlinkSync(found, path.join(tools, tool));
    }
    const result = node.run(good, 'apply', tools);
    expect(result.stderr).toContain('systemd-run not found');
    expect(result.status).toBe(0);
    expect(node.installed()).toBe(rendered(good));
  });

  test('refuses an unknown mode', () => {
    expect(scratchNode().run({ ...good, script: good.script }, 'nonsense' as 'apply').status).toBe(
      KUBELET_EVICTION_EXIT.usage,
    );
  });

  testWithBinary('shellcheck', SHELLCHECK_INSTALL)('is shellcheck-clean POSIX sh', () => {
    const file = path.join(scratchDir('ballast-eviction-step'), 'step.sh');
    fs.writeFileSync(file, good.script);
    const result = spawnSync('shellcheck', ['-s', 'sh', file], { encoding: 'utf8' });
    expect(result.stdout).toBe('');
    expect(result.status).toBe(0);
  });
});

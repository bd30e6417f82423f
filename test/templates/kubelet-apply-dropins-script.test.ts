import { SHELLCHECK_INSTALL, testWithBinary } from '../support/external-binary';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const SCRIPT = path.join(__dirname, '../../templates/apply-kubelet-dropins.sh');
const DROP_IN = 'etc/kubernetes/kubelet.conf.d/50-ballast-eviction.conf';

/**
 * A scratch node: ROOT holds the host files, stub `systemctl` and `curl` on PATH log their calls.
 * The stub kubelet is "active" unless the installed drop-in contains BROKEN, so a bad drop-in
 * really keeps it down until the script restores the previous file.
 */
function scratchNode(installed?: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ballast-apply-'));
  const root = path.join(dir, 'root');
  const bin = path.join(dir, 'bin');
  const staging = path.join(dir, 'staging');
  const log = path.join(dir, 'calls.log');
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(
    path.join(bin, 'systemctl'),
    `#!/bin/sh
echo "systemctl $*" >> "${log}"
if [ "$1" = is-active ]; then
  ! grep -q BROKEN "${root}/${DROP_IN}" 2>/dev/null
fi
`,
    { mode: 0o755 },
  );
  fs.writeFileSync(
    path.join(bin, 'curl'),
    `#!/bin/sh\necho "curl $*" >> "${log}"\n! grep -q BROKEN "${root}/${DROP_IN}" 2>/dev/null\n`,
    { mode: 0o755 },
  );
  fs.writeFileSync(path.join(bin, 'sleep'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  if (installed !== undefined) {
    fs.mkdirSync(path.dirname(path.join(root, DROP_IN)), { recursive: true });
    fs.writeFileSync(path.join(root, DROP_IN), installed);
  }
  const stage = (content: string) => {
    fs.mkdirSync(path.dirname(path.join(staging, DROP_IN)), { recursive: true });
    fs.writeFileSync(path.join(staging, DROP_IN), content, { mode: 0o644 });
  };
  const run = () => {
    const result = spawnSync('sh', [SCRIPT, staging], {
      encoding: 'utf8',
      env: { PATH: `${bin}:/usr/bin:/bin`, ROOT: root, HEALTH_TIMEOUT: '4', HEALTH_INTERVAL: '1', HEALTHY_CHECKS: '2' },
    });
    return { status: result.status, stderr: result.stderr };
  };
  const calls = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []);
  const installedNow = () =>
    fs.existsSync(path.join(root, DROP_IN)) ? fs.readFileSync(path.join(root, DROP_IN), 'utf8') : undefined;
  return { stage, run, calls, installedNow, root };
}

describe('apply-kubelet-dropins.sh', () => {
  test('writes a changed file, restarts the kubelet once and waits for it to be healthy', () => {
    const node = scratchNode('old\n');
    node.stage('new\n');
    expect(node.run()).toMatchObject({ status: 0 });
    expect(node.installedNow()).toBe('new\n');
    expect(node.calls().filter((call) => call.startsWith('systemctl') && !call.includes('is-active'))).toEqual([
      'systemctl daemon-reload',
      'systemctl restart kubelet',
    ]);
    expect(node.calls()).toContain('curl -fsS --max-time 5 http://127.0.0.1:10248/healthz');
    expect(fs.readdirSync(path.dirname(path.join(node.root, DROP_IN)))).toEqual(['50-ballast-eviction.conf']);
  });

  test('does not restart the kubelet when nothing changed', () => {
    const node = scratchNode('same\n');
    node.stage('same\n');
    const result = node.run();
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('unchanged');
    expect(node.calls()).toEqual([]);
  });

  test('restores the previous file and restarts again when the kubelet does not become healthy', () => {
    const node = scratchNode('good\n');
    node.stage('BROKEN\n');
    const result = node.run();
    expect(result.status).toBe(2);
    expect(node.installedNow()).toBe('good\n');
    expect(node.calls().filter((call) => call.includes('restart'))).toEqual([
      'systemctl restart kubelet',
      'systemctl restart kubelet',
    ]);
  });

  test('removes a file that did not exist before when rolling back', () => {
    const node = scratchNode();
    node.stage('BROKEN\n');
    expect(node.run().status).toBe(2);
    expect(node.installedNow()).toBeUndefined();
  });

  test('refuses to run without a staging directory', () => {
    const result = spawnSync('sh', [SCRIPT], { encoding: 'utf8' });
    expect(result.status).toBe(64);
  });

  testWithBinary('shellcheck', SHELLCHECK_INSTALL)('is shellcheck-clean POSIX sh', () => {
    const result = spawnSync('shellcheck', ['-s', 'sh', SCRIPT], { encoding: 'utf8' });
    expect(result.stdout).toBe('');
    expect(result.status).toBe(0);
  });
});

import { SHELLCHECK_INSTALL, testWithBinary } from '../support/external-binary';
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { scratchDir } from '../support/scratch-dir';

const SCRIPT = path.join(__dirname, '../../templates/apply-kubelet-dropins.sh');
const DROP_IN = 'etc/kubernetes/kubelet.conf.d/50-ballast-eviction.conf';

/**
 * A scratch node: ROOT holds the host files, stub `systemctl` and `curl` on PATH log their calls.
 * The stub kubelet is "active" unless the installed drop-in contains BROKEN, so a bad drop-in
 * really keeps it down until the script restores the previous file.
 */
function scratchNode(installed?: string) {
  const dir = scratchDir('ballast-apply');
  const root = path.join(dir, 'root');
  const bin = path.join(dir, 'bin');
  const staging = path.join(dir, 'staging');
  const log = path.join(dir, 'calls.log');
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(
    path.join(bin, 'systemctl'),
    `#!/bin/sh
echo "systemctl $*" >> "${log}"
# KILL_AT=N: the Nth systemctl call sends SIGTERM to the script, as a pod deletion would.
count=$(( $(cat "${dir}/count" 2>/dev/null || echo 0) + 1 ))
echo "$count" > "${dir}/count"
if [ "\${KILL_AT:-0}" = "$count" ]; then kill -TERM "$PPID"; fi
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
  const run = (env: Record<string, string> = {}, asUser?: number) => {
    fs.rmSync(path.join(dir, 'count'), { force: true });
    const command = asUser === undefined ? 'sh' : 'setpriv';
    const args =
      asUser === undefined
        ? [SCRIPT, staging]
        : [`--reuid=${asUser}`, `--regid=${asUser}`, '--clear-groups', 'sh', SCRIPT, staging];
    const result = spawnSync(command, args, {
      encoding: 'utf8',
      env: {
        PATH: `${bin}:/usr/bin:/bin`,
        ROOT: root,
        HEALTH_TIMEOUT: '4',
        HEALTH_INTERVAL: '1',
        HEALTHY_CHECKS: '2',
        ...env,
      },
    });
    return { status: result.status, stderr: result.stderr };
  };
  const calls = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []);
  const installedNow = () =>
    fs.existsSync(path.join(root, DROP_IN)) ? fs.readFileSync(path.join(root, DROP_IN), 'utf8') : undefined;
  return { stage, run, calls, installedNow, root, dir, staging };
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

  test('does not restart the kubelet when nothing changed, but checks that it is healthy', () => {
    const node = scratchNode('same\n');
    node.stage('same\n');
    const result = node.run();
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('unchanged: kubelet healthy');
    expect(node.calls().filter((call) => /daemon-reload|restart/.test(call))).toEqual([]);
    expect(node.calls()).toContain('systemctl is-active --quiet kubelet');
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

  test('installs root-owned files with mode 0644 whoever staged them and however', () => {
    const node = scratchNode('old\n');
    node.stage('new\n');
    const staged = path.join(node.staging, DROP_IN);
    fs.chmodSync(staged, 0o666);
    if (process.getuid?.() === 0) fs.chownSync(staged, 1000, 1000);
    expect(node.run().status).toBe(0);
    const installed = fs.statSync(path.join(node.root, DROP_IN));
    expect(installed.mode & 0o777).toBe(0o644);
    if (process.getuid?.() === 0) expect([installed.uid, installed.gid]).toEqual([0, 0]);
    // A file with the right content but a wider mode is rewritten, not taken as unchanged.
    fs.chmodSync(path.join(node.root, DROP_IN), 0o666);
    expect(node.run().stderr).toContain('wrote /');
    expect(fs.statSync(path.join(node.root, DROP_IN)).mode & 0o777).toBe(0o644);
  });

  test.each([1, 2, 3, 4])(
    'SIGTERM at systemctl call %i keeps the journal and backup; the rerun rolls back, re-applies and checks the kubelet',
    (killAt) => {
      const node = scratchNode('old\n');
      node.stage('new\n');
      const interrupted = node.run({ KILL_AT: String(killAt) });
      expect(interrupted.status).toBe(143);
      const backupDir = path.join(node.root, 'var/lib/ballast/kubelet-dropins-backup');
      expect(fs.existsSync(path.join(backupDir, 'journal'))).toBe(true);
      expect(fs.readFileSync(path.join(backupDir, 'files', DROP_IN), 'utf8')).toBe('old\n');
      const rerun = node.run();
      expect(rerun.stderr).toContain('rolling it back first');
      expect(rerun.stderr).not.toContain('unchanged');
      expect(rerun.status).toBe(0);
      expect(node.installedNow()).toBe('new\n');
      expect(fs.existsSync(path.join(backupDir, 'journal'))).toBe(false);
      expect(node.calls()).toContain('systemctl is-active --quiet kubelet');
    },
  );

  test('a bad drop-in interrupted mid-apply: the rerun restores the good file first, then rolls back the bad one again', () => {
    const node = scratchNode('good\n');
    node.stage('BROKEN\n');
    expect(node.run({ KILL_AT: '2' }).status).toBe(143);
    expect(node.installedNow()).toBe('BROKEN\n');
    const rerun = node.run();
    expect(rerun.status).toBe(2);
    expect(node.installedNow()).toBe('good\n');
  });

  test('rollback restores a symbolic link as a link and removes the directories the apply created', () => {
    const linked = scratchNode();
    const real = path.join(linked.root, 'etc/kubernetes/real-eviction.conf');
    fs.mkdirSync(path.dirname(path.join(linked.root, DROP_IN)), { recursive: true });
    fs.writeFileSync(real, 'good\n');
    fs.symlinkSync(real, path.join(linked.root, DROP_IN));
    linked.stage('BROKEN\n');
    expect(linked.run().status).toBe(2);
    expect(fs.lstatSync(path.join(linked.root, DROP_IN)).isSymbolicLink()).toBe(true);
    expect(fs.readlinkSync(path.join(linked.root, DROP_IN))).toBe(real);

    const fresh = scratchNode();
    fresh.stage('BROKEN\n');
    expect(fresh.run().status).toBe(2);
    expect(fs.existsSync(path.join(fresh.root, 'etc'))).toBe(false);
  });

  test('unchanged files but an unhealthy kubelet: exit 6, never "healthy"', () => {
    const node = scratchNode('BROKEN\n');
    node.stage('BROKEN\n');
    const result = node.run();
    expect(result.status).toBe(6);
    expect(result.stderr).toContain('the kubelet is not healthy');
  });

  (process.getuid?.() === 0 ? test : test.skip)(
    'as an unprivileged user (no chown possible): files still get mode 0644',
    () => {
      const node = scratchNode('old\n');
      node.stage('new\n');
      fs.chmodSync(path.join(node.staging, DROP_IN), 0o664);
      execFileSync('chown', ['-R', '65534:65534', node.dir]);
      const result = node.run({}, 65534);
      expect(result.status).toBe(0);
      const installed = fs.statSync(path.join(node.root, DROP_IN));
      expect(installed.mode & 0o777).toBe(0o644);
      expect(installed.uid).toBe(65534);
    },
  );

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

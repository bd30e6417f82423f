import * as fs from 'fs';
import * as path from 'path';
import { ballast, lintJson, tempTree } from './run-cli';

// Incident 4 (FACTS.md): the drop-in that set only nodefs.available and so dropped the other
// default thresholds, as kubeadm users write it (Environment=) and as a unit that runs the kubelet
// itself writes it (ExecStart=, `%%` for a percent sign, the flag's value as a separate word).
const ENVIRONMENT_FORM = [
  '# /etc/systemd/system/kubelet.service.d/20-eviction.conf',
  '[Service]',
  'Environment="KUBELET_EXTRA_ARGS=--eviction-hard=nodefs.available<5% --node-ip=10.0.0.4"',
  '',
].join('\n');
const EXEC_START_FORM = [
  '[Service]',
  'ExecStart=',
  '# the flags the kubelet runs with on this node pool',
  'ExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml \\',
  '    --eviction-hard memory.available<500Mi,nodefs.available<8%% \\',
  '    --v=2',
  '',
].join('\n');

async function evictionFindings(dir: string) {
  const run = await lintJson(['--kube-version', '1.31', dir]);
  return run.json.findings.filter((f) => f.rule === 'eviction-hard-drops-default-signals');
}

describe('ballast fix on systemd drop-ins (eviction-hard-drops-default-signals)', () => {
  test.each([
    [
      'Environment= (a single % as hand-written drop-ins have it)',
      ENVIRONMENT_FORM,
      'service.environment[0]',
      'Environment="KUBELET_EXTRA_ARGS=--eviction-hard=nodefs.available<5%,memory.available<100Mi,nodefs.inodesFree<5%,imagefs.available<15%,imagefs.inodesFree<5% --node-ip=10.0.0.4"',
    ],
    [
      'ExecStart= (the value a separate word, %% as systemd spells it, continuation lines)',
      EXEC_START_FORM,
      'service.execStart[1]',
      '    --eviction-hard memory.available<500Mi,nodefs.available<8%%,nodefs.inodesFree<5%%,imagefs.available<15%%,imagefs.inodesFree<5%% \\',
    ],
  ])(
    '%s: the missing default signals are added in place, nothing else changes, a second run changes nothing',
    async (_form, text, fieldPath, fixedLine) => {
      const tree = tempTree({ 'kubelet.service.d/20-eviction.conf': text });
      const file = path.join(tree.dir, 'kubelet.service.d/20-eviction.conf');
      try {
        const [finding] = await evictionFindings(tree.dir);
        expect(finding).toMatchObject({ severity: 'error', path: fieldPath });
        expect(finding?.edits.length).toBeGreaterThan(0);

        const fixed = await ballast(['fix', '--kube-version', '1.31', tree.dir]);
        expect(fixed.stderr).toContain('1 finding(s) fixed in 1 file(s)');
        const after = fs.readFileSync(file, 'utf8');
        expect(after.split('\n')).toContain(fixedLine);
        // Every other line is as it was.
        const changed = after.split('\n').filter((line, i) => line !== text.split('\n')[i]);
        expect(changed).toEqual([fixedLine]);
        expect(await evictionFindings(tree.dir)).toEqual([]);

        const again = await ballast(['fix', '--kube-version', '1.31', tree.dir]);
        expect(again.stderr).toContain('0 finding(s) fixed in 0 file(s)');
        expect(fs.readFileSync(file, 'utf8')).toBe(after);
      } finally {
        tree.cleanup();
      }
    },
  );

  test('a flag written twice in one directive is left to a person, with why', async () => {
    const tree = tempTree({
      'kubelet.service.d/20-eviction.conf':
        '[Service]\nEnvironment="A=--eviction-hard=nodefs.available<5%" "B=--eviction-hard=nodefs.available<5%"\n',
    });
    try {
      const fixed = await ballast(['fix', '--kube-version', '1.31', tree.dir]);
      expect(fixed.stderr).toMatch(/eviction-hard-drops-default-signals: not fixed: .*more than once/);
      expect(fixed.code).toBe(1);
    } finally {
      tree.cleanup();
    }
  });
});

import * as fs from 'fs';
import * as path from 'path';
import { lint } from '../../cli/lint-command';
import { runFix } from '../../cli/fix-command';
import { tempTree } from './run-cli';

const SILENT = { out: () => undefined, err: () => undefined };

/** A kops InstanceGroup as `kops get ig -o yaml` writes it, with one hard eviction threshold. */
const KOPS = `apiVersion: kops.k8s.io/v1alpha2
kind: InstanceGroup
metadata:
  name: nodes
  labels:
    kops.k8s.io/cluster: example.k8s.local
spec:
  role: Node
  machineType: t3.large
  minSize: 3
  maxSize: 3
  kubelet:
    evictionHard: memory.available<500Mi
`;
/** A Talos machine configuration patch: a kubelet flag, and a field merged into its configuration. */
const TALOS = `machine:
  kubelet:
    extraArgs:
      eviction-hard: memory.available<300Mi
    extraConfig:
      evictionHard:
        nodefs.available: 5%
`;

const findings = (dir: string) =>
  lint([dir], { cwd: dir, kubeVersion: '1.29' }).findings.map((f) => [
    f.rule,
    f.severity,
    path.relative(dir, f.file ?? ''),
    f.path,
    f.line,
  ]);

describe('kubelet eviction set through kops and Talos', () => {
  test('partial thresholds in a kops spec.kubelet and in Talos extraArgs and extraConfig are refused at their lines', () => {
    const { dir, cleanup } = tempTree({ 'kops/nodes.yaml': KOPS, 'talos/kubelet-patch.yaml': TALOS });
    try {
      expect(findings(dir)).toEqual([
        ['eviction-hard-drops-default-signals', 'error', 'kops/nodes.yaml', 'spec.kubelet.evictionHard', 13],
        // A kops field is no kubelet flag to its user: no deprecation warning.
        [
          'deprecated-kubelet-eviction-flag',
          'warning',
          'talos/kubelet-patch.yaml',
          'machine.kubelet.extraArgs.eviction-hard',
          4,
        ],
        [
          'eviction-hard-drops-default-signals',
          'error',
          'talos/kubelet-patch.yaml',
          'machine.kubelet.extraArgs.eviction-hard',
          4,
        ],
        [
          'eviction-hard-drops-default-signals',
          'error',
          'talos/kubelet-patch.yaml',
          'machine.kubelet.extraConfig.evictionHard',
          6,
        ],
      ]);
    } finally {
      cleanup();
    }
  });

  test('`ballast fix` completes the kops string and the Talos flag and map; the errors are gone', () => {
    const { dir, cleanup } = tempTree({ 'kops/nodes.yaml': KOPS, 'talos/kubelet-patch.yaml': TALOS });
    try {
      runFix([dir], { kubeVersion: '1.29' }, SILENT);
      expect(fs.readFileSync(path.join(dir, 'kops/nodes.yaml'), 'utf8')).toContain(
        '    evictionHard: memory.available<500Mi,nodefs.available<10%,nodefs.inodesFree<5%,imagefs.available<15%\n',
      );
      expect(findings(dir).filter(([, severity]) => severity === 'error')).toEqual([]);
    } finally {
      cleanup();
    }
  });
});

import * as fs from 'fs';
import * as path from 'path';
import { lint } from '../../cli/lint-command';
import { runFix } from '../../cli/fix-command';
import { tempTree } from './run-cli';

const SILENT = { out: () => undefined, err: () => undefined };

/** sakai-nako/homelab-k8s-infra bootstrap/01-k3d-cluster.yaml (held-out-13), cut down: a k3d cluster's kubelet flags. */
const K3D = `apiVersion: k3d.io/v1alpha5
kind: Simple
metadata:
  name: home
servers: 1
agents: 2
options:
  k3s:
    extraArgs:
      - arg: --kubelet-arg=eviction-hard=imagefs.available<1%,nodefs.available<1%
        nodeFilters:
          - server:*
          - agent:*
`;
/** /etc/rancher/k3s/config.yaml as k3s and RKE2 document it: kubelet-arg entries. */
const K3S = `write-kubeconfig-mode: "0644"
kubelet-arg:
  - "eviction-hard=memory.available<200Mi"
  - "max-pods=150"
`;

const errors = (dir: string) =>
  lint([dir], { cwd: dir, kubeVersion: '1.29' })
    .findings.filter((f) => f.severity === 'error')
    .map((f) => [f.rule, path.relative(dir, f.file ?? ''), f.path, f.line]);

describe('kubelet flags of k3s, RKE2 and k3d configuration', () => {
  test('real world: a k3d --kubelet-arg and a k3s kubelet-arg that drop default signals are refused at their lines', () => {
    const { dir, cleanup } = tempTree({ 'bootstrap/01-k3d-cluster.yaml': K3D, 'k3s/config.yaml': K3S });
    try {
      expect(errors(dir)).toEqual([
        ['eviction-hard-drops-default-signals', 'bootstrap/01-k3d-cluster.yaml', 'options.k3s.extraArgs[0].arg', 10],
        ['eviction-hard-drops-default-signals', 'k3s/config.yaml', 'kubelet-arg[0]', 3],
      ]);
    } finally {
      cleanup();
    }
  });

  test('`ballast fix` completes both lists in place; then they pass', () => {
    const { dir, cleanup } = tempTree({ 'bootstrap/01-k3d-cluster.yaml': K3D, 'k3s/config.yaml': K3S });
    try {
      runFix([dir], { kubeVersion: '1.29' }, SILENT);
      expect(fs.readFileSync(path.join(dir, 'bootstrap/01-k3d-cluster.yaml'), 'utf8')).toContain(
        '      - arg: --kubelet-arg=eviction-hard=imagefs.available<1%,nodefs.available<1%,memory.available<100Mi,nodefs.inodesFree<5%\n',
      );
      expect(fs.readFileSync(path.join(dir, 'k3s/config.yaml'), 'utf8')).toContain(
        '  - "eviction-hard=memory.available<200Mi,nodefs.available<10%,nodefs.inodesFree<5%,imagefs.available<15%"\n',
      );
      expect(errors(dir)).toEqual([]);
    } finally {
      cleanup();
    }
  });
});

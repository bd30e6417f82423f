import { findingsFor, ruleHits } from '../../../support/findings';

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

  // sixeyed/kiamol ch19/kind/kiamol-ch19-config.yaml (held-out-11) and
  // priyolahiri/neo4j-kubernetes-operator hack/kind-config.yaml (held-out-268): a node's
  // InitConfiguration patch sets the kubelet flag, which replaces the map kubelet runs with. On a kind
  // node that map is kind's own, disk signals at 0% (off), so the flag turns no threshold off: it
  // drops only what the Cluster's own KubeletConfiguration patches turned on.
  const flagCluster = (patches: string[] = []) => ({
    kind: 'Cluster',
    apiVersion: 'kind.x-k8s.io/v1alpha4',
    kubeadmConfigPatches: patches,
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
  });

  test('real world: passes a kubeletExtraArgs eviction-hard flag on a kind node, which drops only kind’s 0% disk signals', () => {
    expect(ruleHits([flagCluster()], 'eviction-hard-drops-default-signals')).toEqual([]);
    // The flag itself is still deprecated.
    expect(ruleHits([flagCluster()], 'deprecated-kubelet-eviction-flag')).toEqual([
      {
        kind: 'Cluster',
        name: undefined,
        path: 'nodes[0].kubeadmConfigPatches[0].nodeRegistration.kubeletExtraArgs[eviction-hard]',
        severity: 'warning',
        suppressed: false,
      },
      {
        kind: 'Cluster',
        name: undefined,
        path: 'nodes[0].kubeadmConfigPatches[0].nodeRegistration.kubeletExtraArgs[eviction-pressure-transition-period]',
        severity: 'warning',
        suppressed: false,
      },
    ]);
  });

  test('refuses the flag when the Cluster’s KubeletConfiguration patch turned a signal on that the flag drops', () => {
    const patched = flagCluster([
      ['kind: KubeletConfiguration', 'evictionHard:', '  nodefs.available: "10%"'].join('\n'),
    ]);
    const hits = ruleHits([patched], 'eviction-hard-drops-default-signals');
    expect(hits).toEqual([
      {
        kind: 'Cluster',
        name: undefined,
        path: 'nodes[0].kubeadmConfigPatches[0].nodeRegistration.kubeletExtraArgs[eviction-hard]',
        severity: 'error',
        suppressed: false,
      },
    ]);
    const message = findingsFor([patched]).find((f) => f.rule === 'eviction-hard-drops-default-signals')?.message ?? '';
    expect(message).toContain("kind's generated evictionHard with the Cluster's KubeletConfiguration patches");
    expect(message).toContain('nodefs.available (was 10%)');
    expect(message).not.toContain('nodefs.inodesFree');
    const kept = JSON.parse(
      JSON.stringify(patched).replace('memory.available<40%', 'memory.available<40%,nodefs.available<10%'),
    );
    expect(ruleHits([kept], 'eviction-hard-drops-default-signals')).toEqual([]);
  });
});

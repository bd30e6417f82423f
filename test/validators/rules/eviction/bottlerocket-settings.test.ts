import { findingsFor, ruleHits } from '../../../support/findings';

const DROPS = 'eviction-hard-drops-default-signals';

/**
 * yingmuting/eks-demo-whb ip/eksipv4-mng.yaml (held-out-470), cut down: a Bottlerocket managed node
 * group whose settings name one hard signal. Bottlerocket writes evictionHard with exactly the signals
 * of `settings.kubernetes.eviction-hard`, so the kubelet's defaults are gone.
 */
const eksctlCluster = (evictionHard: Record<string, string>, list = 'managedNodeGroups') => ({
  apiVersion: 'eksctl.io/v1alpha5',
  kind: 'ClusterConfig',
  metadata: { name: 'testipv4', region: 'us-east-1' },
  [list]: [
    {
      name: 'x86-br-ami',
      amiFamily: 'Bottlerocket',
      instanceTypes: ['m6i.xlarge', 'm6a.xlarge'],
      bottlerocket: {
        settings: {
          kubernetes: {
            'kube-reserved': { cpu: '100m', memory: '500Mi', 'ephemeral-storage': '1Gi' },
            'eviction-hard': evictionHard,
          },
        },
      },
    },
  ],
});
const MEMORY_ONLY = { 'memory.available': '15%' };

describe(`${DROPS}: Bottlerocket settings.kubernetes.eviction-hard`, () => {
  test.each(['managedNodeGroups', 'nodeGroups'])(
    'real world: an eksctl %s entry naming only memory.available drops the nodefs thresholds',
    (list) => {
      expect(ruleHits([eksctlCluster(MEMORY_ONLY, list)], DROPS)).toEqual([
        {
          kind: 'ClusterConfig',
          name: 'testipv4',
          path: `${list}[0].bottlerocket.settings.kubernetes.eviction-hard`,
          severity: 'error',
          suppressed: false,
        },
      ]);
      const [finding] = findingsFor([eksctlCluster(MEMORY_ONLY, list)]).filter((f) => f.rule === DROPS);
      expect(finding?.message).toContain(
        "eviction-hard names memory.available, which replaces the kubelet's defaults (Bottlerocket writes only the signals named): nodefs.available (was 10%), nodefs.inodesFree (was 5%)",
      );
      expect(finding?.fix).toBe('Add nodefs.available<10%, nodefs.inodesFree<5% to eviction-hard.');
    },
  );

  test('passes a map that keeps memory and both nodefs signals: images share the nodefs volume on Bottlerocket', () => {
    const kept = { 'memory.available': '500Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%' };
    expect(ruleHits([eksctlCluster(kept)], DROPS)).toEqual([]);
  });

  test('passes a node group whose Bottlerocket settings set no eviction-hard: the kubelet keeps its defaults', () => {
    const cluster = eksctlCluster(MEMORY_ONLY);
    delete (
      cluster.managedNodeGroups as Array<{ bottlerocket: { settings: { kubernetes: Record<string, unknown> } } }>
    )[0]!.bottlerocket.settings.kubernetes['eviction-hard'];
    expect(ruleHits([cluster], DROPS)).toEqual([]);
  });

  test('the values are checked too: 0% turns a signal off', () => {
    expect(
      ruleHits(
        [eksctlCluster({ ...MEMORY_ONLY, 'nodefs.available': '0%', 'nodefs.inodesFree': '5%' })],
        'eviction-threshold-disables-signal',
      ).map((hit) => [hit.path, hit.severity]),
    ).toEqual([['managedNodeGroups[0].bottlerocket.settings.kubernetes.eviction-hard[nodefs.available]', 'warning']]);
  });
});

import { KubeVersion, fixFor, validateObjects } from '../../validators';

// kubernetes-sigs/cluster-api test/infrastructure/docker/examples/simple-cluster.yaml (v1beta4-style
// list of {name, value}) and the v1beta3 map form of the same kubeletExtraArgs.
const kubeadmConfigTemplate = (kubeletExtraArgs: unknown) => ({
  apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
  kind: 'KubeadmConfigTemplate',
  metadata: { name: 'workers' },
  spec: { template: { spec: { joinConfiguration: { nodeRegistration: { kubeletExtraArgs } } } } },
});
const LIST = 'nodefs.available<0%,nodefs.inodesFree<0%,imagefs.available<0%';

function planFor(object: Record<string, unknown>) {
  const version = KubeVersion.parse('1.35');
  const finding = validateObjects([{ object }], { kubernetesVersion: version }).findings.find(
    (candidate) => candidate.rule === 'eviction-hard-drops-default-signals',
  );
  if (!finding) throw new Error('no eviction-hard-drops-default-signals finding');
  return { path: finding.path, plan: fixFor(finding, object, version) };
}

describe('the eviction-hard-drops-default-signals fix on kubelet flags', () => {
  test('completes a kubeletExtraArgs map value with the missing signals at their defaults', () => {
    const { path, plan } = planFor(kubeadmConfigTemplate({ 'eviction-hard': LIST }));
    expect(path).toBe('spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs[eviction-hard]');
    expect(plan).toEqual({
      edits: [
        {
          op: 'set',
          path: [
            'spec',
            'template',
            'spec',
            'joinConfiguration',
            'nodeRegistration',
            'kubeletExtraArgs',
            'eviction-hard',
          ],
          value: `${LIST},memory.available<100Mi,imagefs.inodesFree<5%`,
        },
      ],
    });
  });

  test('completes the value of a {name, value} list entry, and the fixed object is refused no more', () => {
    const object = kubeadmConfigTemplate([{ name: 'eviction-hard', value: LIST }]);
    const { plan } = planFor(object);
    if (!('edits' in plan)) throw new Error(plan.unsafe);
    const [edit] = plan.edits;
    expect(edit?.path.slice(-2)).toEqual([0, 'value']);
    const fixed = kubeadmConfigTemplate([{ name: 'eviction-hard', value: edit?.op === 'set' ? edit.value : '' }]);
    expect(validateObjects([{ object: fixed }]).findings.filter((f) => f.severity === 'error')).toEqual([]);
  });
});

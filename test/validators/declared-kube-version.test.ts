import { declaredKubernetesVersion } from '../../validators';

const staticPod = (image: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'kube-apiserver', namespace: 'kube-system' },
  spec: { containers: [{ name: 'kube-apiserver', image }] },
});

describe('declaredKubernetesVersion', () => {
  test('Cluster API: a KubeadmControlPlane spec.version and a Cluster spec.topology.version', () => {
    const controlPlane = {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmControlPlane',
      metadata: { name: 'cp' },
      spec: { version: 'v1.28.4' },
    };
    expect(declaredKubernetesVersion([controlPlane])).toEqual({
      version: expect.objectContaining({ minor: 28 }),
      declaredBy: 'spec.version v1.28.4 (KubeadmControlPlane cp)',
    });
    // pablodelarco/kubernetes-homelab (a real-world repository): a ClusterClass-based Cluster.
    const topology = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Cluster',
      metadata: { name: 'my-workload-cluster' },
      spec: { topology: { class: 'quick-start', version: 'v1.32.0' } },
    };
    expect(declaredKubernetesVersion([topology])?.version.toString()).toBe('1.32');
  });

  test('real world: hyperkube tags with a distribution suffix (boul/tf-cs-kubernetes v1.1.8_coreos.0) are read', () => {
    expect(declaredKubernetesVersion([staticPod('quay.io/coreos/hyperkube:v1.1.8_coreos.0')])).toEqual({
      version: expect.objectContaining({ minor: 20 }),
      declaredBy: expect.stringMatching(/^hyperkube image v1\.1\.8_coreos\.0 .*judged at 1\.20/),
    });
  });

  test('nothing when no version is declared, it is a placeholder, newer than the rules know, or declarations disagree', () => {
    expect(declaredKubernetesVersion([])).toBeUndefined();
    expect(
      declaredKubernetesVersion([
        {
          apiVersion: 'kubeadm.k8s.io/v1beta3',
          kind: 'ClusterConfiguration',
          kubernetesVersion: '${KUBERNETES_VERSION}',
        },
      ]),
    ).toBeUndefined();
    expect(declaredKubernetesVersion([staticPod('registry.k8s.io/kube-apiserver:v1.36.0')])).toBeUndefined();
    expect(
      declaredKubernetesVersion([
        staticPod('registry.k8s.io/kube-apiserver:v1.29.1'),
        staticPod('registry.k8s.io/kube-apiserver:v1.30.0'),
      ]),
    ).toBeUndefined();
  });
});

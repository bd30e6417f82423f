import { load } from 'js-yaml';
import { ruleHits } from '../../../support/findings';

const RULE = 'eviction-hard-drops-default-signals';
const COMPLETE =
  'memory.available<100Mi,nodefs.available<5%,nodefs.inodesFree<5%,imagefs.available<15%,imagefs.inodesFree<5%';
const options = { kubernetesVersion: '1.31' };

/**
 * Cluster API's Docker provider development template, in the shape it has upstream
 * (kubernetes-sigs/cluster-api test/infrastructure/docker/templates/cluster-template-development.yaml
 * at 7025cc18): eviction-hard in the kubeadm kubeletExtraArgs of the control plane and the workers.
 * It names three signals with 0%: the kubelet then has no memory.available threshold at all.
 */
const CAPI_DEVELOPMENT = load(`
kind: KubeadmControlPlane
apiVersion: controlplane.cluster.x-k8s.io/v1alpha3
metadata: {name: dev-control-plane, namespace: default}
spec:
  kubeadmConfigSpec:
    initConfiguration:
      nodeRegistration:
        kubeletExtraArgs:
          cgroup-driver: cgroupfs
          eviction-hard: 'nodefs.available<0%,nodefs.inodesFree<0%,imagefs.available<0%'
    joinConfiguration:
      nodeRegistration:
        kubeletExtraArgs:
          cgroup-driver: cgroupfs
          eviction-hard: 'nodefs.available<0%,nodefs.inodesFree<0%,imagefs.available<0%'
`);

const kubeadm = (apiVersion: string, kind: string, kubeletExtraArgs: unknown) => ({
  apiVersion,
  kind,
  nodeRegistration: { kubeletExtraArgs },
});

describe('eviction set through kubeadm and Cluster API kubeletExtraArgs', () => {
  test('a Cluster API KubeadmControlPlane (upstream development template shape): both registrations refused at their field', () => {
    expect(ruleHits([CAPI_DEVELOPMENT], RULE, options)).toEqual([
      expect.objectContaining({
        kind: 'KubeadmControlPlane',
        severity: 'error',
        path: 'spec.kubeadmConfigSpec.initConfiguration.nodeRegistration.kubeletExtraArgs[eviction-hard]',
      }),
      expect.objectContaining({
        kind: 'KubeadmControlPlane',
        severity: 'error',
        path: 'spec.kubeadmConfigSpec.joinConfiguration.nodeRegistration.kubeletExtraArgs[eviction-hard]',
      }),
    ]);
    // 0% also silently disables those signals.
    expect(ruleHits([CAPI_DEVELOPMENT], 'eviction-threshold-disables-signal', options).length).toBeGreaterThan(0);
  });

  test('kubeadm v1beta3 (a map) and v1beta4 (a list of name/value): partial refused, complete accepted', () => {
    const partialMap = kubeadm('kubeadm.k8s.io/v1beta3', 'JoinConfiguration', {
      'eviction-hard': 'nodefs.available<5%',
    });
    const completeMap = kubeadm('kubeadm.k8s.io/v1beta3', 'InitConfiguration', { 'eviction-hard': COMPLETE });
    const partialList = kubeadm('kubeadm.k8s.io/v1beta4', 'JoinConfiguration', [
      { name: 'node-labels', value: 'role=storage' },
      { name: 'eviction-hard', value: 'nodefs.available<5%' },
    ]);
    const completeList = kubeadm('kubeadm.k8s.io/v1beta4', 'InitConfiguration', [
      { name: 'eviction-hard', value: COMPLETE },
    ]);
    expect(ruleHits([partialMap], RULE, options)).toEqual([
      expect.objectContaining({ severity: 'error', path: 'nodeRegistration.kubeletExtraArgs[eviction-hard]' }),
    ]);
    expect(ruleHits([partialList], RULE, options)).toEqual([
      expect.objectContaining({ severity: 'error', path: 'nodeRegistration.kubeletExtraArgs[1].value' }),
    ]);
    expect(ruleHits([completeMap, completeList], RULE, options)).toEqual([]);
  });

  test('Cluster API KubeadmConfigTemplate and KubeadmControlPlaneTemplate: the template paths', () => {
    const configTemplate = {
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmConfigTemplate',
      metadata: { name: 'workers' },
      spec: {
        template: {
          spec: {
            joinConfiguration: {
              nodeRegistration: { kubeletExtraArgs: { 'eviction-hard': 'memory.available<200Mi' } },
            },
          },
        },
      },
    };
    const controlPlaneTemplate = {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmControlPlaneTemplate',
      metadata: { name: 'cp' },
      spec: {
        template: {
          spec: {
            kubeadmConfigSpec: {
              initConfiguration: { nodeRegistration: { kubeletExtraArgs: { 'eviction-hard': COMPLETE } } },
            },
          },
        },
      },
    };
    expect(ruleHits([configTemplate, controlPlaneTemplate], RULE, options)).toEqual([
      expect.objectContaining({
        kind: 'KubeadmConfigTemplate',
        path: 'spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs[eviction-hard]',
      }),
    ]);
  });

  test('kubeletExtraArgs without eviction flags, or of another shape, are no finding', () => {
    const other = kubeadm('kubeadm.k8s.io/v1beta3', 'JoinConfiguration', { 'node-labels': 'a=b' });
    const odd = kubeadm('kubeadm.k8s.io/v1beta4', 'JoinConfiguration', 'eviction-hard=nodefs.available<5%');
    expect(ruleHits([other, odd], RULE, options)).toEqual([]);
  });
});

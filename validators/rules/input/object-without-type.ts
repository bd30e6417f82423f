import { distance } from 'fastest-levenshtein';
import { isClusterScopedKind } from '../../cluster-scoped-kinds';
import { JsonRecord, asString, getRecord, isRecord } from '../../json';
import type { ObjectIndex } from '../../object-index';
import { WORKLOAD_KINDS } from '../../pod-templates';
import type { FixPlan } from '../../fix-plan';
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

/** An apiVersion as Kubernetes writes it: `v1`, `apps/v1`, `networking.k8s.io/v1beta1`. */
const KUBERNETES_API_VERSION = /^(?:[a-z0-9.-]+\/)?v\d+(?:(?:alpha|beta)\d+)?$/;

/**
 * Files whose documents all lack an apiVersion and name some kind Kubernetes does not have: another
 * tool's configuration (Octelium's `octops apply` files write `kind: ClusterConfig`, `Policy`, and
 * `Namespace` or `Service` of its own), where a familiar kind is no Kubernetes object cut short.
 */
function filesOfAnotherTool(index: ObjectIndex): ReadonlySet<string> {
  // Only the files holding a familiar kind without an apiVersion are in question: few, or none.
  const inQuestion = new Map<string, { noneHasApiVersion: boolean; foreignKind: boolean }>();
  for (const object of index.objects)
    if (object.ref.apiVersion === undefined && isBuiltInKind(object.ref.kind) && object.source.file !== undefined)
      inQuestion.set(object.source.file, { noneHasApiVersion: true, foreignKind: false });
  if (inQuestion.size === 0) return new Set();
  for (const object of index.objects) {
    const verdict = inQuestion.get(object.source.file ?? '');
    if (!verdict) continue;
    if (object.ref.apiVersion !== undefined) verdict.noneHasApiVersion = false;
    if (!isBuiltInKind(object.ref.kind)) verdict.foreignKind = true;
  }
  return new Set(
    [...inQuestion].filter(([, verdict]) => verdict.noneHasApiVersion && verdict.foreignKind).map(([file]) => file),
  );
}

/**
 * `items` that are Kubernetes objects: `kubectl get -o yaml` output cut short of its `kind: List`
 * line (BCDevOps/platform-services' openshift_manifests/deployment.yml: `apiVersion: v1` and
 * `items:` of a DeploymentConfig). kubectl refuses it for the missing kind.
 */
function holdsObjectItems(raw: JsonRecord): boolean {
  const items = raw.items;
  return (
    Array.isArray(items) &&
    items.length > 0 &&
    items.every((item) => isRecord(item) && typeof item.kind === 'string' && typeof item.apiVersion === 'string')
  );
}

/**
 * What a misspelt key's value must look like to be the type it misspells: `cdiVersion: "0.6.0"` beside
 * `kind: vendor1.com/device` is a Container Device Interface spec (moby/buildkit's cdidevices
 * fixtures), not an apiVersion written with a typo.
 */
const TYPE_VALUE: Readonly<Record<TypeField, RegExp>> = {
  apiVersion: KUBERNETES_API_VERSION,
  kind: /^[A-Za-z][A-Za-z0-9]*$/,
};

/** How far a key may be from `apiVersion` or `kind` to read as a misspelling of it (`piVersion`, `apiVerison`, `Kind`). */
const MISSPELLING_DISTANCE: Readonly<Record<TypeField, number>> = { apiVersion: 2, kind: 1 };

type TypeField = 'apiVersion' | 'kind';

/**
 * The key of `raw` that reads as a misspelt `field` (`piVersion: v1`, `Kind: Service`): one that
 * differs only in case or by a letter or two, whose value is a string. Undefined when `field` is
 * written, or no key is that close.
 */
export function misspeltTypeKey(raw: JsonRecord, field: TypeField): string | undefined {
  if (field in raw) return undefined;
  const wanted = field.toLowerCase();
  return Object.keys(raw).find(
    (key) =>
      typeof raw[key] === 'string' &&
      TYPE_VALUE[field].test(raw[key]) &&
      key !== field &&
      (key.toLowerCase() === wanted || distance(key.toLowerCase(), wanted) <= MISSPELLING_DISTANCE[field]),
  );
}

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
    const otherToolsFiles = context.index.derived(filesOfAnotherTool);
    const definedKinds = context.index.derived(customResourceKinds);
    for (const object of context.index.objects) {
      const { apiVersion, kind } = object.ref;
      if (apiVersion !== undefined && kind !== undefined) continue;
      // A document of a file that a kustomization of the input lists in `resources` is an object
      // whatever it holds: `kustomize build` refuses it without a type, so the exemptions for other
      // tools' documents below do not apply (a misspelt key is still named).
      const resource = object.source.kustomizeResource === true;
      const missing = apiVersion === undefined ? 'apiVersion' : 'kind';
      // `piVersion: v1` beside a kind (or a kind misspelt beside an apiVersion) is a Kubernetes
      // object with a typo, whatever its kind.
      const misspelt = misspeltTypeKey(object.raw, missing);
      // Go's encoding/json matches keys whatever their case, so a tool reading its own kind accepts
      // `apiversion` (operator-sdk's scorecard config.yaml, `kind: Configuration`): a typo only on a
      // kind Kubernetes serves, which kubectl reads case for case.
      if (missing === 'apiVersion' && misspelt?.toLowerCase() === 'apiversion' && !isBuiltInKind(kind) && !resource)
        continue;
      if (resource && (misspelt === undefined || kind === undefined)) {
        context.report(object, {
          path: kind === undefined ? 'kind' : 'apiVersion',
          message: resourceMessage(apiVersion, kind),
        });
        continue;
      }
      if (misspelt === undefined) {
        // An apiVersion alone is a Kubernetes object only with object metadata (Chart.yaml and
        // clusterctl's metadata.yaml carry an apiVersion and nothing of an object), and only in
        // Kubernetes' form (`v1`, `apps/v1`): Eclipse Che's devfile writes `apiVersion: 1.0.0`.
        if (
          kind === undefined &&
          ((!isRecord(object.raw.metadata) && !holdsObjectItems(object.raw)) ||
            !KUBERNETES_API_VERSION.test(apiVersion ?? ''))
        )
          continue;
        // openshift-install's install-config.yaml: `apiVersion: v1` and metadata, no kind, and the
        // cluster's required baseDomain; the installer reads it, nothing applies it.
        if (kind === undefined && typeof object.raw.baseDomain === 'string') continue;
        const definedHere = kind !== undefined && definedKinds.has(kind);
        if (
          apiVersion === undefined &&
          ((!isBuiltInKind(kind) && !definedHere) || otherToolsFiles.has(object.source.file ?? ''))
        )
          continue;
        // A kind alone, too, is an object only with object metadata, or a spec and nothing else:
        // istio's gateway chart values (`helm show values`) write `kind: Deployment` beside
        // replicaCount, rbac and serviceAccount; a book's `kind: PodSecurityPolicy` and its `spec` is cut short.
        if (apiVersion === undefined && !isRecord(object.raw.metadata) && !kindAndSpecOnly(object.raw)) continue;
      }
      context.report(object, {
        path: missing,
        message:
          `the document has ${missing === 'kind' ? 'an apiVersion' : 'a kind'} but no ${missing}` +
          (misspelt === undefined
            ? ' (or it is not a text)'
            : ` (the key "${misspelt}" reads as a misspelt ${missing})`) +
          ': kubectl refuses it, and no rule can check it.',
      });
    }
  },
};

function resourceMessage(apiVersion: string | undefined, kind: string | undefined): string {
  const has =
    apiVersion === undefined && kind === undefined
      ? 'neither an apiVersion nor a kind'
      : `${kind === undefined ? 'an apiVersion' : 'a kind'} but no ${kind === undefined ? 'kind' : 'apiVersion'}`;
  return (
    `the document has ${has} (or it is not a text), and a kustomization of the input lists its file in resources: ` +
    '`kustomize build` refuses it, and no rule can check it.'
  );
}

/**
 * The kinds the CustomResourceDefinitions of the input serve (`spec.names.kind`): a document of such
 * a kind without an apiVersion is that API's object cut short (kostaleonard/kubernetes-in-action's
 * `kind: Website` beside website-crd.yaml), not another tool's document.
 */
function customResourceKinds(index: ObjectIndex): ReadonlySet<string> {
  const kinds = new Set<string>();
  for (const definition of index.ofKind('CustomResourceDefinition')) {
    const kind = asString(getRecord(definition.raw, 'spec', 'names')?.kind);
    if (kind !== undefined) kinds.add(kind);
  }
  return kinds;
}

/** A document of a kind and a spec and nothing else: an object's shape, without its type and name. */
function kindAndSpecOnly(raw: JsonRecord): boolean {
  const keys = Object.keys(raw);
  return keys.length === 2 && keys.includes('kind') && isRecord(raw.spec);
}

function isBuiltInKind(kind: string | undefined): boolean {
  return (
    kind !== undefined &&
    (NAMESPACED_BUILT_IN_KINDS.has(kind) ||
      WORKLOAD_KINDS.includes(kind) ||
      isClusterScopedKind(kind) ||
      GATEWAY_API_KINDS.has(kind))
  );
}

/**
 * Kinds whose apiVersion is certain: each has one group and version served today, with the schema
 * its earlier versions had (rbac.authorization.k8s.io/v1beta1, extensions/v1beta1 NetworkPolicy).
 * Not Deployment and the other apps kinds (apps/v1 requires a selector the old groups did not),
 * Ingress, HorizontalPodAutoscaler, PodDisruptionBudget or CronJob, whose versions differ in fields.
 */
const CERTAIN_API_VERSIONS: ReadonlyMap<string, string> = new Map([
  ...[
    'ConfigMap',
    'Secret',
    'Service',
    'ServiceAccount',
    'PersistentVolumeClaim',
    'PersistentVolume',
    'Pod',
    'Namespace',
    'Endpoints',
    'LimitRange',
    'ResourceQuota',
    'ReplicationController',
  ].map((kind) => [kind, 'v1'] as const),
  ...['Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding'].map(
    (kind) => [kind, 'rbac.authorization.k8s.io/v1'] as const,
  ),
  ['StorageClass', 'storage.k8s.io/v1'],
  ['NetworkPolicy', 'networking.k8s.io/v1'],
  ['PriorityClass', 'scheduling.k8s.io/v1'],
  ['Lease', 'coordination.k8s.io/v1'],
  ['Job', 'batch/v1'],
]);

/**
 * The fix of an incomplete type: a misspelt key renamed (`piVersion` to `apiVersion`), or the one
 * apiVersion a kind can have written before its first key. Anything else is a choice for a person.
 */
export function completeObjectType(object: JsonRecord): FixPlan {
  if (typeof object.apiVersion !== 'string' && typeof object.kind !== 'string')
    return { unsafe: 'which kind the object is, is not in the file' };
  const missing: TypeField = typeof object.apiVersion === 'string' ? 'kind' : 'apiVersion';
  const misspelt = misspeltTypeKey(object, missing);
  if (misspelt !== undefined) return { edits: [{ op: 'rename', path: [misspelt], to: missing }] };
  const certain =
    missing === 'apiVersion' && typeof object.kind === 'string' ? CERTAIN_API_VERSIONS.get(object.kind) : undefined;
  if (certain !== undefined) return { edits: [{ op: 'set', path: ['apiVersion'], value: certain, first: true }] };
  return {
    unsafe:
      missing === 'kind'
        ? 'which kind the object is, is not in the file'
        : `${String(object.kind)} has had API versions whose fields differ: write the apiVersion its fields are written for`,
  };
}

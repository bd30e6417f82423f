/**
 * The built-in Kubernetes kinds that are cluster-scoped (no namespace), by API group, with the
 * release that served them first and, where removed, the first release without them. Checked
 * against the API reference of each release (kubectl api-resources --namespaced=false), 1.20–1.35.
 * The API server ignores `metadata.namespace` on these; a Chart's namespace must not be left on them.
 *
 * Data only (no cdk8s import): the rule engine and the constructs share it.
 */
export interface ClusterScopedKind {
  /** API group; '' for the core group (`v1`). */
  readonly group: string;
  readonly kind: string;
  /** First release serving the kind, when it arrived after 1.20. */
  readonly since?: string;
  /** First release no longer serving it, when removed. */
  readonly removedIn?: string;
}

export const CLUSTER_SCOPED_KINDS: readonly ClusterScopedKind[] = [
  { group: '', kind: 'Namespace' },
  { group: '', kind: 'Node' },
  { group: '', kind: 'PersistentVolume' },
  { group: '', kind: 'ComponentStatus' },
  { group: 'rbac.authorization.k8s.io', kind: 'ClusterRole' },
  { group: 'rbac.authorization.k8s.io', kind: 'ClusterRoleBinding' },
  { group: 'storage.k8s.io', kind: 'StorageClass' },
  { group: 'storage.k8s.io', kind: 'CSIDriver' },
  { group: 'storage.k8s.io', kind: 'CSINode' },
  { group: 'storage.k8s.io', kind: 'VolumeAttachment' },
  { group: 'storage.k8s.io', kind: 'VolumeAttributesClass', since: '1.29' },
  { group: 'storagemigration.k8s.io', kind: 'StorageVersionMigration', since: '1.30' },
  { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition' },
  { group: 'apiregistration.k8s.io', kind: 'APIService' },
  { group: 'admissionregistration.k8s.io', kind: 'MutatingWebhookConfiguration' },
  { group: 'admissionregistration.k8s.io', kind: 'ValidatingWebhookConfiguration' },
  { group: 'admissionregistration.k8s.io', kind: 'ValidatingAdmissionPolicy', since: '1.26' },
  { group: 'admissionregistration.k8s.io', kind: 'ValidatingAdmissionPolicyBinding', since: '1.26' },
  { group: 'admissionregistration.k8s.io', kind: 'MutatingAdmissionPolicy', since: '1.32' },
  { group: 'admissionregistration.k8s.io', kind: 'MutatingAdmissionPolicyBinding', since: '1.32' },
  { group: 'scheduling.k8s.io', kind: 'PriorityClass' },
  { group: 'node.k8s.io', kind: 'RuntimeClass' },
  { group: 'networking.k8s.io', kind: 'IngressClass' },
  { group: 'networking.k8s.io', kind: 'ClusterCIDR', since: '1.25', removedIn: '1.29' },
  { group: 'networking.k8s.io', kind: 'IPAddress', since: '1.27' },
  { group: 'networking.k8s.io', kind: 'ServiceCIDR', since: '1.29' },
  { group: 'policy', kind: 'PodSecurityPolicy', removedIn: '1.25' },
  { group: 'certificates.k8s.io', kind: 'CertificateSigningRequest' },
  { group: 'certificates.k8s.io', kind: 'ClusterTrustBundle', since: '1.27' },
  { group: 'flowcontrol.apiserver.k8s.io', kind: 'FlowSchema' },
  { group: 'flowcontrol.apiserver.k8s.io', kind: 'PriorityLevelConfiguration' },
  { group: 'internal.apiserver.k8s.io', kind: 'StorageVersion' },
  { group: 'resource.k8s.io', kind: 'ResourceClass', since: '1.26', removedIn: '1.31' },
  { group: 'resource.k8s.io', kind: 'DeviceClass', since: '1.31' },
  { group: 'resource.k8s.io', kind: 'ResourceSlice', since: '1.30' },
  { group: 'authentication.k8s.io', kind: 'TokenReview' },
  { group: 'authentication.k8s.io', kind: 'SelfSubjectReview', since: '1.26' },
  { group: 'authorization.k8s.io', kind: 'SubjectAccessReview' },
  { group: 'authorization.k8s.io', kind: 'SelfSubjectAccessReview' },
  { group: 'authorization.k8s.io', kind: 'SelfSubjectRulesReview' },
];

const BY_GROUP_AND_KIND = new Map(CLUSTER_SCOPED_KINDS.map((entry) => [`${entry.group}/${entry.kind}`, entry]));
const KIND_NAMES = new Set(CLUSTER_SCOPED_KINDS.map((entry) => entry.kind));

/** The API group of an apiVersion: `apps/v1` -> `apps`, `v1` -> '' (core). */
export function apiGroupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/**
 * Whether a built-in kind is cluster-scoped. With an apiVersion the group must match too (a
 * custom resource named `Node` in its own group is not the core Node); without one the kind
 * name alone decides.
 */
export function isClusterScopedKind(kind: string | undefined, apiVersion?: string): boolean {
  if (kind === undefined) return false;
  if (apiVersion === undefined) return KIND_NAMES.has(kind);
  return BY_GROUP_AND_KIND.has(`${apiGroupOf(apiVersion)}/${kind}`);
}

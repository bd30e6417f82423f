import { asArray, asRecord, asString, getRecord, isRecord } from './json';
import { componentImage } from './component-image';
import { KubeVersion, NEWEST_KNOWN_KUBERNETES_VERSION, OLDEST_KNOWN_KUBERNETES_VERSION } from './kube-version';

/** The Kubernetes version a set of objects says its cluster runs, and what says so. */
export interface DeclaredKubernetesVersion {
  /** The version to judge the input at: the declared one, or the oldest the rules know when it is older. */
  readonly version: KubeVersion;
  /** `kube-apiserver image v1.12.2 (Pod kube-apiserver)`, and how the version was taken when it differs. */
  readonly declaredBy: string;
}

/** `v1.29.3`, `1.29`, `v1.15.3_coreos.0`: the minor of a Kubernetes 1.x release. */
const RELEASE = /^v?1\.(\d+)(?:\.\d+)?(?:[-_+.].*)?$/;

/**
 * Component images whose tag is the cluster's release, in a static Pod: a Deployment running
 * kube-scheduler is a second scheduler (a user-scheduler, a scheduler plugin), whatever release the
 * cluster runs. Not cloud-controller-manager, which follows its cloud provider's releases.
 */
const RELEASE_PROGRAMS = new Set([
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'kube-proxy',
  'hyperkube',
]);

/**
 * The Kubernetes version the input declares for its cluster: kubeadm's ClusterConfiguration
 * `kubernetesVersion`, Cluster API's KubeadmControlPlane `spec.version` or Cluster
 * `spec.topology.version`, or the image tags of control-plane static Pods. Undefined when nothing
 * declares one, or when declarations disagree on the minor (several clusters, or an upgrade in
 * progress): then no single version speaks for the input. A version newer than the rules know is
 * no reason to move off the default (the newest they know); one older than they know is judged at
 * the oldest they know, and says so.
 */
export function declaredKubernetesVersion(objects: readonly unknown[]): DeclaredKubernetesVersion | undefined {
  const declarations = objects.flatMap((object) => (isRecord(object) ? declarationsOf(object) : []));
  const minors = new Set(declarations.map((declaration) => declaration.minor));
  const [first] = declarations;
  if (!first || minors.size !== 1) return undefined;
  const declared = KubeVersion.parse(`1.${first.minor}`);
  if (declared.atLeast(NEWEST_KNOWN_KUBERNETES_VERSION)) return undefined;
  if (declared.before(OLDEST_KNOWN_KUBERNETES_VERSION)) {
    return {
      version: KubeVersion.parse(OLDEST_KNOWN_KUBERNETES_VERSION),
      declaredBy: `${first.by}; judged at ${OLDEST_KNOWN_KUBERNETES_VERSION}, the oldest version the rules know`,
    };
  }
  return { version: declared, declaredBy: first.by };
}

function declarationsOf(object: Record<string, unknown>): Array<{ minor: number; by: string }> {
  const kind = asString(object.kind);
  const apiVersion = asString(object.apiVersion) ?? '';
  const release = (value: unknown, field: string) => {
    const text = asString(value);
    const match = text === undefined ? null : RELEASE.exec(text);
    if (!match) return [];
    const name = asString(asRecord(object.metadata)?.name);
    return [{ minor: Number(match[1]), by: `${field} ${text} (${kind ?? 'object'}${name ? ` ${name}` : ''})` }];
  };
  if (kind === 'ClusterConfiguration' && apiVersion.startsWith('kubeadm.k8s.io/'))
    return release(object.kubernetesVersion, 'kubernetesVersion');
  if (kind === 'KubeadmControlPlane' && apiVersion.startsWith('controlplane.cluster.x-k8s.io/'))
    return release(getRecord(object, 'spec')?.version, 'spec.version');
  if (kind === 'Cluster' && apiVersion.startsWith('cluster.x-k8s.io/'))
    return release(getRecord(object, 'spec', 'topology')?.version, 'spec.topology.version');
  if (kind !== 'Pod') return [];
  return asArray(getRecord(object, 'spec')?.containers).flatMap((container) => {
    const component = componentImage(asString(asRecord(container)?.image) ?? '');
    return component && RELEASE_PROGRAMS.has(component.program)
      ? release(component.tag, `${component.program} image`)
      : [];
  });
}

import { JsonRecord, asArray, asString } from './json';

/**
 * The kind ballast gives a project's README (`README.md`) met in a directory walk: not a Kubernetes
 * object, but what the project says of the cluster it deploys to. Homelab and course repositories
 * name their cluster in prose ("a k3s cluster on three Raspberry Pis", "start minikube"), rarely in
 * their YAML, and their claims that name no class then get that distribution's node-local default.
 */
export const PROJECT_README_KIND = 'ProjectReadme';

/** Whether a file of this name is a project README ballast reads (Markdown, any case). */
export function isProjectReadmeName(name: string): boolean {
  return /^readme\.md$/i.test(name);
}

/**
 * How prose names each single-machine distribution (local-cluster-path.ts). `kind` is a common
 * English word: only its command, its site and its spelling as a name (KinD) count.
 */
const DISTRIBUTION_MENTIONS: ReadonlyArray<readonly [string, RegExp]> = [
  ['k3s', /\bk3s\b/i],
  ['k3d', /\bk3d\b/i],
  ['minikube', /\bminikube\b/i],
  ['microk8s', /\bmicrok8s\b/i],
  ['kind', /\bkind create cluster\b|\bkind\.sigs\.k8s\.io\b|\bKinD\b|\[kind\]/],
  ['docker-desktop', /\bdocker[- ]desktop\b/i],
  ['rancher-desktop', /\brancher[- ]desktop\b/i],
];

/**
 * Managed clusters and attachable storage: a README that names one of them beside a local
 * distribution ("minikube for development, EKS in production", "examples for Minikube and hosted
 * Kubernetes", "k3s with Longhorn") does not say which default a claim gets, so it says nothing.
 */
const OTHER_CLUSTERS =
  /\b(EKS|GKE|AKS|OKE|DOKS|Amazon Elastic Kubernetes|Google Kubernetes Engine|Azure Kubernetes|hosted Kubernetes|managed Kubernetes|DigitalOcean|Hetzner|Linode|OpenShift|Longhorn|Rook|Ceph|OpenEBS|Portworx|EBS|Persistent ?Disk|Azure Disk)\b/i;

/**
 * A README as an object of kind ProjectReadme, when it names single-machine distributions
 * (`localDistributions`, as local-cluster-path.ts names them) and nothing that would contradict
 * their node-local default; undefined otherwise (nothing is kept).
 */
export function projectReadme(text: string): JsonRecord | undefined {
  if (OTHER_CLUSTERS.test(text)) return undefined;
  const named = DISTRIBUTION_MENTIONS.filter(([, mention]) => mention.test(text)).map(([name]) => name);
  return named.length > 0 ? { kind: PROJECT_README_KIND, localDistributions: named } : undefined;
}

/** The distributions a ProjectReadme object names. */
export function readmeDistributions(readme: JsonRecord): string[] {
  return asArray(readme.localDistributions).flatMap((name) => asString(name) ?? []);
}

/**
 * The architecture suffix of the single-architecture image builds published before multi-architecture
 * manifests (`k8s.gcr.io/kube-scheduler-amd64`, `quay.io/external_storage/nfs-client-provisioner-arm`),
 * as regular-expression source: optional, so the plain name matches too.
 */
export const ARCHITECTURE_SUFFIX = '(?:-(?:amd64|arm64|arm|ppc64le|s390x))?';

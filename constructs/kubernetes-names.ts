/**
 * Kubernetes object-name formats (apimachinery's validation), checked at construction so a bad
 * name fails in `cdk8s synth`, not at `kubectl apply`.
 */

/** RFC 1123 subdomain: most object names (PersistentVolumes, StorageClasses, Secrets, Leases). */
export const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

/** RFC 1123 label: namespaces, Services, and names that become labels or host names. */
export const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

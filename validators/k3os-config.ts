import { JsonRecord, getRecord } from './json';
import { isKindlessDocument } from './list-items';

/**
 * The kind ballast gives a k3OS configuration (`/var/lib/rancher/k3os/config.yaml`, or a file of
 * `k3os/` a repository keeps per node): not a Kubernetes object, but what k3OS, the Alpine-based
 * operating system that runs k3s, boots each node with.
 */
export const K3OS_CONFIG_KIND = 'K3osConfig';

/**
 * The keys of the `k3os` section of k3OS's configuration (k3OS README, "Configuration Reference"):
 * with one of them a document is a k3OS configuration, whatever else it sets.
 */
const K3OS_SECTION_KEYS = [
  'k3s_args',
  'data_sources',
  'modules',
  'sysctl',
  'ntp_servers',
  'dns_nameservers',
  'wifi',
  'password',
  'server_url',
  'token',
  'labels',
  'taints',
  'environment',
  'install',
];

/**
 * A YAML document that configures a k3OS node (a `k3os` section with one of k3OS's own keys:
 * `k3s_args`, `ntp_servers`, `server_url`, ...), as an object of kind K3osConfig with the document's
 * own keys (findings keep their paths); undefined for any other document.
 */
export function k3osConfig(document: unknown): JsonRecord | undefined {
  if (!isKindlessDocument(document)) return undefined;
  const section = getRecord(document, 'k3os');
  if (!section || !K3OS_SECTION_KEYS.some((key) => key in section)) return undefined;
  return { kind: K3OS_CONFIG_KIND, ...document };
}

import { JsonRecord } from './json';
import { isKindlessDocument } from './list-items';

/**
 * The kind ballast gives a Kubespray inventory variables file that configures the kubelet: not a
 * Kubernetes object, but what Kubespray renders into every node's kubelet flags and configuration.
 */
export const KUBESPRAY_VARIABLES_KIND = 'KubesprayVariables';

/**
 * Kubespray's variables that reach the kubelet (roles/kubernetes/node): flags appended to its
 * command line, and maps rendered into its KubeletConfiguration.
 */
export const KUBESPRAY_KUBELET_VARIABLES = {
  /** Lists (or a string) of flags joined onto KUBELET_ARGS. */
  flags: ['kubelet_custom_flags', 'kubelet_node_custom_flags'],
  /** Maps rendered as the KubeletConfiguration's `evictionHard`. */
  evictionHard: ['eviction_hard', 'eviction_hard_control_plane'],
  /** Maps rendered as top-level KubeletConfiguration fields. */
  configuration: ['kubelet_config_extra_args', 'kubelet_node_config_extra_args'],
} as const;

const ALL_VARIABLES: readonly string[] = Object.values(KUBESPRAY_KUBELET_VARIABLES).flat();
/** Where Ansible keeps inventory variables. */
const INVENTORY_VARIABLES_DIRECTORY = /(^|[\\/])(group_vars|host_vars)[\\/]/;

/**
 * A document of an Ansible inventory's group_vars or host_vars that sets one of Kubespray's kubelet
 * variables, as an object of kind KubesprayVariables with the document's own keys (so findings keep
 * their paths in the file); undefined for any other document.
 */
export function kubesprayVariables(document: unknown, file: string): JsonRecord | undefined {
  if (!isKindlessDocument(document)) return undefined;
  if (!INVENTORY_VARIABLES_DIRECTORY.test(file)) return undefined;
  if (!ALL_VARIABLES.some((name) => name in document)) return undefined;
  return { kind: KUBESPRAY_VARIABLES_KIND, ...document };
}

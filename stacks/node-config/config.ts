import * as k8s from '@pulumi/kubernetes';
import { NodePrerequisite, NODE_PREREQUISITES, findNodePrerequisite } from '../../validators/node-prerequisites';
import { NodePrepStep, NodePrepStepProvider } from './node-prep-step';

/** The stack config as written in Pulumi.<stack>.yaml (namespace `ballast-node-config`). */
export interface NodeConfigStackConfig {
  /** @default 'ballast-node-prep' */
  readonly namespace?: string;
  /**
   * Image with /bin/sh and nsenter, pinned by digest (`repo:tag@sha256:...`): a tag can be moved to
   * other content, and this image runs privileged on every node. @default 'docker.io/library/debian:bookworm-slim' (with a warning)
   */
  readonly image?: string;
  readonly nodeGroups: readonly NodeGroupConfig[];
}

export interface NodeGroupConfig {
  /** Kebab-case; names the DaemonSet `node-prep-<name>`. */
  readonly name: string;
  /** Names of the nodes (`kubectl get nodes`) to prepare and label. */
  readonly nodes: readonly string[];
  /** Prerequisites to install, by declared name (`nfs-client`, `rbd-client`). May be empty when the group has extensions. */
  readonly prerequisites: readonly string[];
  /** Tolerations for tainted node pools. @default - none */
  readonly tolerations?: readonly k8s.types.input.core.v1.Toleration[];
  /** Config of extension steps, by provider config key (see extensions.ts). @default - none */
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/** A validated node group, with its declarations and steps resolved. */
export interface NodeGroup {
  readonly name: string;
  readonly nodes: readonly string[];
  readonly prerequisites: readonly NodePrerequisite[];
  readonly tolerations: readonly k8s.types.input.core.v1.Toleration[];
  readonly steps: readonly NodePrepStep[];
}

export interface ResolvedNodeConfig {
  readonly namespace: string;
  readonly image: string;
  readonly groups: readonly NodeGroup[];
  /** What is allowed but unwise (a mutable image tag): `pulumi up` prints these. */
  readonly warnings: readonly string[];
}

/**
 * Namespaces the stack must not take over: it labels its namespace `enforce: privileged` (the
 * node-prep pods need it), which would open these to privileged pods of anyone who can create one.
 */
export const RESERVED_NAMESPACES: readonly string[] = ['kube-system', 'kube-public', 'kube-node-lease', 'default'];

const PINNED_IMAGE = /@sha256:[a-f0-9]{64}$/;

export const DEFAULT_NAMESPACE = 'ballast-node-prep';
export const DEFAULT_IMAGE = 'docker.io/library/debian:bookworm-slim';
const DNS_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const NODE_NAME = /^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/;

/** Validates the stack config; every problem is reported at once, each naming its field and fix. */
export function resolveNodeConfig(
  config: NodeConfigStackConfig,
  providers: ReadonlyArray<NodePrepStepProvider<unknown>> = [],
): ResolvedNodeConfig {
  const problems: string[] = [];
  const namespace = config.namespace ?? DEFAULT_NAMESPACE;
  if (!DNS_LABEL.test(namespace))
    problems.push(`namespace "${namespace}": must be a DNS label (lower-case letters, digits, -)`);
  else if (RESERVED_NAMESPACES.includes(namespace))
    problems.push(
      `namespace "${namespace}": reserved; the stack labels its namespace pod-security enforce=privileged, ` +
        `which must not apply to ${namespace}: use a namespace of its own (default ${DEFAULT_NAMESPACE})`,
    );
  const image = config.image ?? DEFAULT_IMAGE;
  const warnings: string[] = [];
  if (typeof image !== 'string' || image.trim() === '') problems.push('image: set an image with /bin/sh and nsenter');
  else if (!PINNED_IMAGE.test(image))
    warnings.push(
      `image "${image}" is not pinned by digest: the tag can be moved to other content, and this image runs ` +
        'privileged on every node. Pin it: image: <repo>:<tag>@sha256:<digest> (`crane digest <repo>:<tag>`).',
    );
  const groupsIn = Array.isArray(config.nodeGroups) ? config.nodeGroups : [];
  if (groupsIn.length === 0) problems.push('nodeGroups: set at least one group {name, nodes, prerequisites}');
  const seenNodes = new Map<string, string>();
  const seenGroups = new Set<string>();
  const groups: NodeGroup[] = [];
  groupsIn.forEach((group, index) => {
    const where = `nodeGroups[${index}]`;
    if (typeof group?.name !== 'string' || !DNS_LABEL.test(group.name) || group.name.length > 40) {
      problems.push(`${where}.name ${JSON.stringify(group?.name)}: use a kebab-case name of at most 40 characters`);
    } else if (seenGroups.has(group.name)) {
      problems.push(`${where}.name "${group.name}": used by another group`);
    }
    seenGroups.add(group?.name);
    const nodes = Array.isArray(group?.nodes) ? group.nodes : [];
    if (nodes.length === 0) problems.push(`${where}.nodes: list the node names to prepare (kubectl get nodes)`);
    for (const node of nodes) {
      if (typeof node !== 'string' || !NODE_NAME.test(node))
        problems.push(`${where}.nodes: ${JSON.stringify(node)} is not a node name`);
      else if (seenNodes.has(node))
        problems.push(
          `${where}.nodes: node "${node}" is already in group "${seenNodes.get(node)}"; a node belongs to one group`,
        );
      else seenNodes.set(node, group.name);
    }
    const names = Array.isArray(group?.prerequisites) ? group.prerequisites : [];
    const prerequisites: NodePrerequisite[] = [];
    for (const name of names) {
      const prerequisite = findNodePrerequisite(String(name));
      if (prerequisite) prerequisites.push(prerequisite);
      else
        problems.push(
          `${where}.prerequisites: unknown "${String(name)}"; known: ${Object.keys(NODE_PREREQUISITES).join(', ')}`,
        );
    }
    const steps: NodePrepStep[] = [];
    const extensions = group?.extensions ?? {};
    let knownExtensions = 0;
    for (const key of Object.keys(extensions)) {
      const provider = providers.find((candidate) => candidate.configKey === key);
      if (!provider) {
        problems.push(
          `${where}.extensions.${key}: unknown extension; known: ${providers.map((p) => p.configKey).join(', ') || '(none)'}`,
        );
        continue;
      }
      knownExtensions += 1;
      try {
        steps.push(
          ...provider.steps(provider.parse(extensions[key], `${where}.extensions.${key}`), { name: group.name, nodes }),
        );
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
    // A group may only carry extension steps (e.g. an eviction policy on a pool that needs no package).
    if (names.length === 0 && knownExtensions === 0) {
      problems.push(
        `${where}.prerequisites: list at least one of ${Object.keys(NODE_PREREQUISITES).join(', ')} (or configure an extension)`,
      );
    }
    const stepNames = new Set<string>();
    for (const step of steps) {
      if (!DNS_LABEL.test(step.name) || step.name.length > 50 || stepNames.has(step.name)) {
        problems.push(
          `${where}: extension step name "${step.name}" must be a unique kebab-case name of at most 50 characters`,
        );
      }
      stepNames.add(step.name);
    }
    groups.push({ name: group?.name, nodes, prerequisites, tolerations: group?.tolerations ?? [], steps });
  });
  if (problems.length > 0) throw new Error(`invalid ballast-node-config stack config:\n  - ${problems.join('\n  - ')}`);
  return { namespace, image, groups, warnings };
}

/**
 * The extension point of the node-config stack: other ballast features that must change the host
 * (the kubelet eviction policy, issue 5) contribute typed steps here instead of writing their own
 * privileged DaemonSet. A step runs on the host, in the node-prep DaemonSet of each node group
 * whose config enables it, after the prerequisites are installed; the group's nodes are labelled
 * only when every step verified.
 *
 * To add a feature: implement a NodePrepStepProvider and list it in NODE_PREP_STEP_PROVIDERS. Its
 * config lives per node group under `extensions.<configKey>` in the stack config.
 */
import { kubeletEvictionStepProvider } from './kubelet-eviction-step';
import { NodePrepStepProvider } from './node-prep-step';

export type { NodePrepStep, NodePrepStepProvider } from './node-prep-step';

/** Every provider the stack knows: the kubelet eviction policy (`extensions.kubeletEviction`). */
export const NODE_PREP_STEP_PROVIDERS: ReadonlyArray<NodePrepStepProvider<unknown>> = [kubeletEvictionStepProvider];

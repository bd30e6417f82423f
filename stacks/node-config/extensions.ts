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

/** One host change, run through nsenter in the host's namespaces. */
export interface NodePrepStep {
  /** Kebab-case, unique in its group: names the init container `step-<name>`. */
  readonly name: string;
  /**
   * A POSIX sh script, fed on stdin to `sh -s -- <args>` on the host. It must be idempotent (a
   * second run changes nothing), write files atomically, and exit non-zero on failure: the pod then
   * stays not-ready, the rollout stops at this node, and no label is applied.
   */
  readonly script: string;
  /** Arguments of the install run. @default - none */
  readonly args?: readonly string[];
  /**
   * Arguments of the verification run, repeated by the readiness probe (a node whose step no
   * longer verifies turns not-ready). @default - the step is only checked by its own exit code
   */
  readonly verifyArgs?: readonly string[];
  /** Environment of both runs (no secrets: it is visible in the pod spec). @default - none */
  readonly env?: Readonly<Record<string, string>>;
  /** Node labels applied after the group's DaemonSet is ready. @default - none */
  readonly labels?: Readonly<Record<string, string>>;
}

/** Turns one typed section of a node group's config into host steps. */
export interface NodePrepStepProvider<TConfig> {
  /** The key under the group's `extensions` (e.g. `kubeletEviction`). */
  readonly configKey: string;
  /** Validates the raw config section; throws an Error naming the field and the fix. */
  parse(raw: unknown, where: string): TConfig;
  /** The steps for one node group. */
  steps(config: TConfig, group: { readonly name: string; readonly nodes: readonly string[] }): readonly NodePrepStep[];
}

/**
 * Every provider the stack knows. The eviction policy (templates/kubelet-*.ts,
 * templates/apply-kubelet-dropins.sh) plugs in here.
 */
export const NODE_PREP_STEP_PROVIDERS: ReadonlyArray<NodePrepStepProvider<unknown>> = [];

/**
 * What a node-prep step is and what provides one: the contract between the node-config stack and
 * the features that change hosts (see extensions.ts for the list of providers).
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
  /** Node labels applied after the node's preparation is ready. @default - none */
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * The step can take the node down for a while (it restarts the kubelet). A DaemonSet starts
   * all its pods at once when it is created (maxUnavailable only paces updates), so the stack then
   * gives the group one DaemonSet per node, each created or updated only after the previous
   * node's is ready: one node at a time on first install too, and a failure stops the rollout.
   * @default false
   */
  readonly disruptsNode?: boolean;
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

/**
 * Parameters of rules that a team may need to adapt to its cluster (kube-linter style): set in
 * `.ballast.yaml` for lint, in the gate props for synth. Each has a safe default.
 */
export interface RuleSettings {
  /**
   * Node label keys that mark nodes where a node prerequisite (such as an NFS client) is
   * installed. A workload that needs the prerequisite must require one of them.
   */
  readonly prerequisiteLabelKeys: readonly string[];
}

export const DEFAULT_RULE_SETTINGS: RuleSettings = {
  prerequisiteLabelKeys: [],
};

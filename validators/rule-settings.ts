import { NODE_PREREQUISITES } from './node-prerequisites';

/**
 * Parameters of rules that a team may need to adapt to its cluster (kube-linter style): set in
 * `.ballast.yaml` for lint, in the gate props for synth. Each has a safe default.
 */
export interface RuleSettings {
  /**
   * Node label keys that mark nodes where a node prerequisite (such as an NFS client) is
   * installed. A workload that needs the prerequisite must require one of them. A team that
   * labels its prepared nodes itself adds its own key here. The keys of the other declared
   * prerequisites never count (an rbd-client label says nothing about an NFS client).
   */
  readonly prerequisiteLabelKeys: readonly string[];
}

export const DEFAULT_RULE_SETTINGS: RuleSettings = {
  prerequisiteLabelKeys: Object.values(NODE_PREREQUISITES).map((prerequisite) => prerequisite.label.key),
};

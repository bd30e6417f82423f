import { Rule } from '../rule';
import { EVICTION_RULES } from './eviction';
import { INPUT_RULES } from './input';
import { LEADER_ELECTION_RULES } from './leader-election';
import { NFS_RULES } from './nfs';
import { PERSISTENT_VOLUME_RULES } from './persistent-volumes';
import { STATEFUL_STORAGE_RULES } from './stateful-storage';
import { invalidSuppression } from './suppression/invalid-suppression';

/** Every ballast rule, in catalogue order. Each area owns its list; the engine never changes. */
export const ALL_RULES: readonly Rule[] = [
  ...PERSISTENT_VOLUME_RULES,
  ...STATEFUL_STORAGE_RULES,
  ...NFS_RULES,
  ...EVICTION_RULES,
  ...LEADER_ELECTION_RULES,
  invalidSuppression,
  ...INPUT_RULES,
];

/** The rule with this id, or undefined. */
export function findRule(id: string): Rule | undefined {
  return ALL_RULES.find((rule) => rule.id === id);
}

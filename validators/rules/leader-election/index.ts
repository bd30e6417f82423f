import { Rule } from '../../rule';

export const LEADER_ELECTION_RULES: readonly Rule[] = [];

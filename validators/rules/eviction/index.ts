import { Rule } from '../../rule';

export const EVICTION_RULES: readonly Rule[] = [];

import { Rule } from '../../rule';

export const STATEFUL_STORAGE_RULES: readonly Rule[] = [];

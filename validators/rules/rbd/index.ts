import { Rule } from '../../rule';

export const RBD_RULES: readonly Rule[] = [];

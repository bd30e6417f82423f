import { Rule } from '../../rule';

export const NFS_RULES: readonly Rule[] = [];

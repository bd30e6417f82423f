import { Rule } from '../../rule';
import { persistentVolumeWithNamespace } from './persistent-volume-with-namespace';
import { recycleReclaimPolicy } from './recycle-reclaim-policy';

export const PERSISTENT_VOLUME_RULES: readonly Rule[] = [persistentVolumeWithNamespace, recycleReclaimPolicy];

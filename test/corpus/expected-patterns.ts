/**
 * Which rules catch each pattern of ../shared/corpus/EXPECTED.md. A row is caught when one of its
 * pattern's rules reports an unsuppressed error on that object of that file. Each rule area adds
 * the patterns it covers.
 */
export const RULES_BY_PATTERN: Readonly<Record<string, readonly string[]>> = {
  'PV with metadata.namespace': ['persistent-volume-with-namespace'],
  'persistentVolumeReclaimPolicy: Recycle': ['recycle-reclaim-policy'],
};

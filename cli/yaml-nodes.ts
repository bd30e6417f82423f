import { Pair, YAMLMap, isScalar } from 'yaml';

/**
 * The pairs of a `yaml` package mapping whose scalar key reads as `segment` (a field path segment),
 * in order: more than one where the mapping writes the key twice (invalid YAML that ballast still
 * reads). Keys compare as text, so a path segment `"0"` finds the key `0` as Kubernetes field paths mean it.
 */
export function pairsWithKey(map: YAMLMap, segment: string | number): Pair[] {
  return map.items.filter((item) => isScalar(item.key) && String(item.key.value) === String(segment));
}

/**
 * The pair of a mapping whose key reads as `segment`; where the mapping writes it twice, the last:
 * its value is the one older kubectl and the API server applied, and the one the rules judged.
 */
export function pairWithKey(map: YAMLMap, segment: string | number): Pair | undefined {
  const pairs = pairsWithKey(map, segment);
  return pairs[pairs.length - 1];
}

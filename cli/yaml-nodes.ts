import { Pair, YAMLMap, isScalar } from 'yaml';

/**
 * The pair of a `yaml` package mapping whose scalar key reads as `segment` (a field path segment).
 * Keys compare as text, so a path segment `"0"` finds the key `0` as Kubernetes field paths mean it.
 */
export function pairWithKey(map: YAMLMap, segment: string | number): Pair | undefined {
  return map.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
}

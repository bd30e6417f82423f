import { Pair, YAMLMap, isScalar } from 'yaml';

/**
 * The pair of a `yaml` package mapping whose scalar key reads as `segment` (a field path segment).
 * Keys compare as text, so a path segment `"0"` finds the key `0` as Kubernetes field paths mean it.
 * Where the mapping writes the key twice (invalid YAML that ballast still reads), the last pair:
 * its value is the one older kubectl and the API server applied, and the one the rules judged.
 */
export function pairWithKey(map: YAMLMap, segment: string | number): Pair | undefined {
  for (let i = map.items.length - 1; i >= 0; i--) {
    const item = map.items[i];
    if (item && isScalar(item.key) && String(item.key.value) === String(segment)) return item;
  }
  return undefined;
}

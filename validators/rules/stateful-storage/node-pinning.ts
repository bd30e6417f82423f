import { JsonRecord, asArray, asRecord, asString, asStringList, getRecord, isRecord } from '../../json';

const HOSTNAME_LABEL = 'kubernetes.io/hostname';

/** The one hostname that every required node selector term insists on, if there is exactly one. */
export function hostnameOfTerms(terms: readonly unknown[]): string | undefined {
  const hostnames = new Set<string>();
  if (terms.length === 0) return undefined;
  for (const term of terms) {
    const expression = asArray(getRecord(term)?.matchExpressions).find(
      (candidate) => isRecord(candidate) && candidate.key === HOSTNAME_LABEL && candidate.operator === 'In',
    );
    const values = asStringList(getRecord(expression)?.values);
    const [hostname] = values;
    if (values.length !== 1 || hostname === undefined) return undefined;
    hostnames.add(hostname);
  }
  return hostnames.size === 1 ? [...hostnames][0] : undefined;
}

/** The node a pod spec is pinned to by name, if any. */
export function pinnedNodeOfPod(podSpec: JsonRecord): string | undefined {
  return (
    asString(podSpec.nodeName) ??
    asString(asRecord(podSpec.nodeSelector)?.[HOSTNAME_LABEL]) ??
    hostnameOfTerms(
      asArray(
        getRecord(podSpec, 'affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution')
          ?.nodeSelectorTerms,
      ),
    )
  );
}

/**
 * True when a PersistentVolume can only be used on one node: one whose required node affinity names
 * a single hostname, or a `local` volume, unless its affinity names several hostnames (a directory
 * every one of those nodes has, such as a shared folder). Every pod using it then runs on that
 * node, where ReadWriteOnce allows them all.
 */
export function volumePinnedToOneNode(volume: JsonRecord): boolean {
  const spec = getRecord(volume, 'spec');
  const terms = asArray(getRecord(spec, 'nodeAffinity', 'required')?.nodeSelectorTerms);
  if (hostnameOfTerms(terms) !== undefined) return true;
  return asRecord(spec?.local) !== undefined && hostnamesOfTerms(terms).size <= 1;
}

/** Every hostname that a term's `In` expression on the hostname label names. */
function hostnamesOfTerms(terms: readonly unknown[]): Set<string> {
  const hostnames = new Set<string>();
  for (const term of terms)
    for (const expression of asArray(getRecord(term)?.matchExpressions))
      if (isRecord(expression) && expression.key === HOSTNAME_LABEL && expression.operator === 'In')
        for (const hostname of asStringList(expression.values)) hostnames.add(hostname);
  return hostnames;
}

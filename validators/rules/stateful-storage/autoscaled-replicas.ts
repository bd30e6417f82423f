import { asNumber, asString, getRecord } from '../../json';
import { IndexedObject, ObjectIndex, directoryOf, sameNamespace } from '../../object-index';

/** An autoscaler of a workload in the input, and the most replicas it may scale the workload to. */
export interface Autoscaler {
  readonly object: IndexedObject;
  readonly maxReplicas: number;
  /**
   * A KEDA ScaledObject paused by `autoscaling.keda.sh/paused: "true"`: KEDA leaves the replicas
   * alone until someone removes the annotation, so it scales the workload only then.
   */
  readonly paused: boolean;
}

/** KEDA's pause annotations (keda.sh, "Pause autoscaling"). */
const KEDA_PAUSED = 'autoscaling.keda.sh/paused';
/** Pauses at this replica count: KEDA scales the target to it and no further. */
const KEDA_PAUSED_REPLICAS = 'autoscaling.keda.sh/paused-replicas';

/**
 * The autoscalers ballast reads: a HorizontalPodAutoscaler (`spec.maxReplicas`, required) and a
 * KEDA ScaledObject (`spec.maxReplicaCount`, 100 when unset; its target kind defaults to Deployment).
 */
const AUTOSCALERS: ReadonlyArray<{
  readonly kind: string;
  readonly maxReplicas: (spec: unknown) => number | undefined;
}> = [
  { kind: 'HorizontalPodAutoscaler', maxReplicas: (spec) => asNumber(getRecord(spec)?.maxReplicas) },
  { kind: 'ScaledObject', maxReplicas: (spec) => asNumber(getRecord(spec)?.maxReplicaCount) ?? 100 },
];

/**
 * The autoscaler that may scale a workload furthest, among those in the workload's file or
 * directory that target it (`scaleTargetRef` kind and name, same namespace): an autoscaler is
 * applied with its workload, and a repository of independent examples holds others' of the same name.
 */
export function autoscalerOf(index: ObjectIndex, workload: IndexedObject): Autoscaler | undefined {
  const candidates = index.derived(autoscalersByTarget).get(targetKey(workload.ref.kind, workload.ref.name));
  if (!candidates) return undefined;
  const directory = directoryOf(workload.source.file);
  let best: Autoscaler | undefined;
  for (const candidate of candidates) {
    if (!sameNamespace(candidate.object, workload) || directoryOf(candidate.object.source.file) !== directory) continue;
    if (!best || candidate.maxReplicas > best.maxReplicas) best = candidate;
  }
  return best;
}

function autoscalersByTarget(index: ObjectIndex): ReadonlyMap<string, readonly Autoscaler[]> {
  const byTarget = new Map<string, Autoscaler[]>();
  for (const { kind, maxReplicas } of AUTOSCALERS) {
    for (const object of index.ofKind(kind)) {
      const spec = getRecord(object.raw, 'spec');
      const target = getRecord(spec, 'scaleTargetRef');
      const pinned = kind === 'ScaledObject' ? pausedReplicas(object) : undefined;
      const most = pinned ?? maxReplicas(spec);
      if (!target || most === undefined) continue;
      const key = targetKey(asString(target.kind) ?? 'Deployment', asString(target.name));
      const list = byTarget.get(key) ?? [];
      const paused = kind === 'ScaledObject' && pinned === undefined && object.annotations[KEDA_PAUSED] === 'true';
      list.push({ object, maxReplicas: most, paused });
      byTarget.set(key, list);
    }
  }
  return byTarget;
}

/** The replica count a ScaledObject is paused at (`autoscaling.keda.sh/paused-replicas`), when it is a number. */
function pausedReplicas(scaledObject: IndexedObject): number | undefined {
  const value = scaledObject.annotations[KEDA_PAUSED_REPLICAS];
  return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}

function targetKey(kind: string | undefined, name: string | undefined): string {
  return `${kind ?? ''}\u0000${name ?? ''}`;
}

import { JsonRecord, asNumber, asString, getRecord } from '../../json';
import { matchesLabelSelector } from '../../label-selector';
import { IndexedObject, ObjectIndex, PodTemplate, directoryOf, sameNamespace } from '../../object-index';
import { podSpecOf } from '../../pod-templates';
import { autoscalerOf } from './autoscaled-replicas';
import { ResolvedClaim } from './claims';
import { podLabelsOf, sameNodeSelectors } from './co-location';
import { pinnedNodeOfPod } from './node-pinning';

/**
 * A kustomize patch of the input (an overlay's) that makes the workload's rollout safe where the
 * base alone is not: it keeps every pod on one node (nodeName, a hostname nodeSelector or node
 * affinity, a required podAffinity by hostname on the workload's own pod labels), or, for a
 * workload that runs one pod, sets the Recreate strategy. The base applied alone still fails, so
 * the finding stays, as a warning that names the patch: GitOps repositories apply such bases only
 * through their overlays.
 */
export function overlayFixOf(index: ObjectIndex, template: PodTemplate): OverlayFix | undefined {
  const workload = template.owner;
  const patches = index.patchesOfKind(workload.ref.kind ?? '');
  if (patches.length === 0) return undefined;
  for (const patch of patchesByName(patches).get(workload.ref.name ?? '') ?? []) {
    if (!sameNamespace(patch, workload)) continue;
    const podSpec = podSpecOf(patch.ref.kind, patch.raw)?.spec;
    if (podSpec && (pinnedNodeOfPod(podSpec) !== undefined || tiedToOwnPods(podSpec, template)))
      return { patch, does: 'keeps every pod on one node' };
    if (
      asString(getRecord(patch.raw, 'spec', 'strategy')?.type) === 'Recreate' &&
      onePodWithPatch(index, workload, patch)
    )
      return { patch, does: 'sets the Recreate strategy' };
  }
  return undefined;
}

/** The fields of a claim's spec whose patch changes where its volume can be used. */
const CLAIM_STORAGE_FIELDS = ['accessModes', 'storageClassName', 'volumeName', 'selector'] as const;

/**
 * The claim as each overlay of the input makes it, when its kustomize patches set the claim's
 * access modes or class: the base's spec with the patches' fields put in (a strategic merge
 * replaces a list of strings whole), in the order the input holds them. The patches of one
 * directory are one overlay's and apply together (lexbox's local-dev makes its claim ReadWriteOnce
 * in one file and Docker Desktop's node-local `hostpath` in another). The claim applied through
 * an overlay is the patched one: a base claim of ReadWriteMany that an overlay makes ReadWriteOnce
 * on Longhorn fails there (AbeYuki/redmine-k8s).
 */
export function overlayClaimsOf(index: ObjectIndex, claim: ResolvedClaim): ResolvedClaim[] {
  const object = claim.object;
  const patches = index.patchesOfKind('PersistentVolumeClaim');
  if (!object || patches.length === 0) return [];
  const byOverlay = new Map<string, JsonRecord>();
  for (const patch of patchesByName(patches).get(object.ref.name ?? '') ?? []) {
    const patchSpec = getRecord(patch.raw, 'spec');
    if (!patchSpec || !sameNamespace(patch, object)) continue;
    const overlay = directoryOf(patch.source.file);
    const spec = byOverlay.get(overlay) ?? { ...claim.spec };
    for (const field of CLAIM_STORAGE_FIELDS) if (patchSpec[field] !== undefined) spec[field] = patchSpec[field];
    byOverlay.set(overlay, spec);
  }
  return [...byOverlay]
    .filter(
      ([, spec]) =>
        spec.accessModes !== claim.spec.accessModes || spec.storageClassName !== claim.spec.storageClassName,
    )
    .map(([overlay, spec]) => ({
      spec,
      annotations: claim.annotations,
      description: `${claim.description} as the overlay in ${overlay === '' ? '.' : overlay} patches it`,
    }));
}

/** An overlay's patch that makes the rollout safe, and how. */
export interface OverlayFix {
  readonly patch: IndexedObject;
  readonly does: 'keeps every pod on one node' | 'sets the Recreate strategy';
}

/** A required podAffinity by hostname on the base template's own pod labels. */
function tiedToOwnPods(podSpec: JsonRecord, template: PodTemplate): boolean {
  const labels = podLabelsOf(template);
  return sameNodeSelectors(podSpec).some((selector) => matchesLabelSelector(labels, selector) === true);
}

/** One replica in the base and in the patch, and no autoscaler past one: Recreate then never runs two pods. */
function onePodWithPatch(index: ObjectIndex, workload: IndexedObject, patch: IndexedObject): boolean {
  const replicas =
    asNumber(getRecord(patch.raw, 'spec')?.replicas) ?? asNumber(getRecord(workload.raw, 'spec')?.replicas) ?? 1;
  return replicas <= 1 && (autoscalerOf(index, workload)?.maxReplicas ?? 1) <= 1;
}

/** The patches of one kind by name, built once per list: a lookup per workload stays O(1) however many patches. */
const PATCHES_BY_NAME = new WeakMap<readonly IndexedObject[], ReadonlyMap<string, readonly IndexedObject[]>>();

function patchesByName(patches: readonly IndexedObject[]): ReadonlyMap<string, readonly IndexedObject[]> {
  let byName = PATCHES_BY_NAME.get(patches);
  if (!byName) {
    const built = new Map<string, IndexedObject[]>();
    for (const patch of patches) {
      if (patch.ref.name === undefined) continue;
      const named = built.get(patch.ref.name);
      if (named) named.push(patch);
      else built.set(patch.ref.name, [patch]);
    }
    PATCHES_BY_NAME.set(patches, (byName = built));
  }
  return byName;
}

import { JsonRecord, asArray, asRecord, asString, asStringList, getRecord, isRecord } from '../../json';
import { IndexedObject, ObjectIndex, readAnnotations } from '../../object-index';
import { defaultClassMark } from '../../default-storage-class';
import { releasedStorageClasses } from '../../helm-release-storage-classes';
import { storageClassNameOf } from '../../storage-class-name';

/** Access modes that let only one node (or one pod) write the volume. */
const SINGLE_NODE_MODES = new Set(['ReadWriteOnce', 'ReadWriteOncePod']);

/** A claim as a workload sees it: a PersistentVolumeClaim object or a StatefulSet's claim template. */
export interface ResolvedClaim {
  /** The claim's `spec`. */
  readonly spec: JsonRecord;
  /** The PersistentVolumeClaim object, when the claim is one (not a StatefulSet-generated claim). */
  readonly object?: IndexedObject;
  /** The claim's annotations, or its template's: the beta class annotation is read ahead of the spec. */
  readonly annotations: Readonly<Record<string, string>>;
  /** `PersistentVolumeClaim shop/data` or `claim template data of StatefulSet shop/db`. */
  readonly description: string;
}

/** What names a claim's class: its spec, its annotations, and the claim object when there is one. */
export type ClaimSource = Pick<ResolvedClaim, 'spec' | 'object' | 'annotations'>;

/** One of a StatefulSet's claim templates, as read from its `spec.volumeClaimTemplates`. */
export interface ClaimTemplate {
  /** Its position in the list, for field paths. */
  readonly position: number;
  readonly name?: string;
  readonly spec?: JsonRecord;
  /** Its annotations: the beta class annotation is read ahead of the spec. */
  readonly annotations: Readonly<Record<string, string>>;
}

/** A StatefulSet's claim templates, each with its name, spec and annotations (none for other kinds). */
export function claimTemplatesOf(statefulSet: IndexedObject): ClaimTemplate[] {
  if (statefulSet.ref.kind !== 'StatefulSet') return [];
  return asArray(getRecord(statefulSet.raw, 'spec')?.volumeClaimTemplates).map((template, position) => {
    const metadata = getRecord(template, 'metadata');
    const name = asString(metadata?.name);
    const spec = getRecord(template, 'spec');
    return {
      position,
      ...(name !== undefined ? { name } : {}),
      ...(spec ? { spec } : {}),
      annotations: readAnnotations(metadata),
    };
  });
}

/**
 * One claim spec anywhere in the set, with the field path of its `spec`: a claim source whose
 * `object` is the PersistentVolumeClaim itself, when it is one (for bound-volume lookups).
 */
export interface ClaimSpecLocation extends ClaimSource {
  readonly owner: IndexedObject;
  readonly path: string;
}

function scopedKey(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}\u0000${name}`;
}

/**
 * Finds the claim a pod volume names. Claims created by a StatefulSet from its
 * `volumeClaimTemplates` are named `<template>-<statefulset>-<ordinal>`; another workload that
 * mounts one (`local-vol-local-test-0`) is resolved to that template, so its access mode is known
 * even though no PersistentVolumeClaim object is in the set.
 */
export class ClaimResolver {
  private readonly templates = new Map<
    string,
    { statefulSet: IndexedObject; spec: JsonRecord; annotations: Readonly<Record<string, string>>; name: string }
  >();

  constructor(private readonly index: ObjectIndex) {
    for (const statefulSet of index.ofKind('StatefulSet')) {
      const setName = statefulSet.ref.name;
      if (setName === undefined) continue;
      for (const { name, spec, annotations } of claimTemplatesOf(statefulSet)) {
        if (name === undefined || !spec) continue;
        const key = scopedKey(statefulSet.ref.namespace, `${name}-${setName}`);
        if (!this.templates.has(key)) this.templates.set(key, { statefulSet, spec, annotations, name });
      }
    }
  }

  public resolve(namespace: string | undefined, claimName: string, from?: IndexedObject): ResolvedClaim | undefined {
    // A workload written without a namespace is applied into one (`kubectl apply -n`), where the
    // claim of that name, written with its namespace, may well be.
    const object =
      this.index.get('PersistentVolumeClaim', namespace, claimName, from) ??
      (namespace === undefined ? this.index.getInAnyNamespace('PersistentVolumeClaim', claimName, from) : undefined);
    if (object) {
      const spec = getRecord(object.raw, 'spec') ?? {};
      const where = object.ref.namespace ? `${object.ref.namespace}/` : '';
      return {
        spec,
        object,
        annotations: object.annotations,
        description: `PersistentVolumeClaim ${where}${claimName}`,
      };
    }
    const ordinal = /^(.+)-\d+$/.exec(claimName);
    const templateName = ordinal?.[1];
    if (templateName === undefined) return undefined;
    const template =
      this.templates.get(scopedKey(namespace, templateName)) ??
      (namespace ? this.templates.get(scopedKey(undefined, templateName)) : undefined);
    if (!template) return undefined;
    return {
      spec: template.spec,
      annotations: template.annotations,
      description: `claim ${claimName} (template ${template.name} of StatefulSet ${template.statefulSet.ref.name})`,
    };
  }
}

/**
 * The access modes of a claim: its own, or, when it states none, those of the PersistentVolume
 * it binds to.
 */
export function accessModesOf(index: ObjectIndex, claim: ResolvedClaim): string[] {
  const own = asStringList(claim.spec.accessModes);
  if (own.length > 0 || !claim.object) return own;
  const volume = index.volumeForClaim(claim.object);
  return volume ? asStringList(getRecord(volume.raw, 'spec')?.accessModes) : [];
}

/**
 * True when only one node can write the volume: the modes include ReadWriteOnce or
 * ReadWriteOncePod and nothing that lets several nodes write.
 */
export function isSingleNodeWriter(modes: readonly string[]): boolean {
  return modes.some((mode) => SINGLE_NODE_MODES.has(mode)) && !modes.includes('ReadWriteMany');
}

/** A StorageClass the input makes the cluster default: by name, with the object when the input holds it. */
export interface DefaultStorageClass {
  readonly name: string;
  readonly storageClass?: IndexedObject;
  /** Where this is the default, when the input runs the workload on more than one cluster (a kind cluster, an AWS one). */
  readonly cluster?: string;
}

/**
 * Every StorageClass the input makes the default: classes annotated so, classes a kustomize
 * patch marks (a GitOps repository often patches the default of a class its remote base installs,
 * or unmarks k3s's local-path next to Longhorn), and classes a Helm release of a storage chart
 * installs as the default (helm-release-storage-classes.ts). Several defaults are possible: Kubernetes then
 * gives a claim the most recently created one (since 1.26, `GetDefaultClass` in
 * kubernetes pkg/volume/util/storageclass.go; before, the claim was refused), which the input cannot tell.
 */
export function defaultStorageClasses(index: ObjectIndex): readonly DefaultStorageClass[] {
  return index.derived(collectDefaultStorageClasses);
}

function collectDefaultStorageClasses(index: ObjectIndex): readonly DefaultStorageClass[] {
  const marked = new Map<string, boolean>();
  for (const storageClass of index.ofKind('StorageClass')) {
    const mark = defaultClassMark(storageClass.annotations);
    if (mark !== undefined && storageClass.ref.name !== undefined) marked.set(storageClass.ref.name, mark);
  }
  for (const patch of index.patchesOfKind('StorageClass')) {
    const mark = defaultClassMark(patch.annotations);
    if (mark !== undefined && patch.ref.name !== undefined) marked.set(patch.ref.name, mark);
  }
  // A chart a GitOps release installs (local-path-provisioner with `storageClass.defaultClass`):
  // its values speak for a class the input holds no object of, unless the input annotates one.
  for (const released of releasedStorageClasses(index)) {
    if (!marked.has(released.name)) marked.set(released.name, released.isDefault);
  }
  return [...marked]
    .filter(([, isDefault]) => isDefault)
    .map(([name]) => {
      const storageClass = index.get('StorageClass', undefined, name);
      return storageClass ? { name, storageClass } : { name };
    });
}

/** The StorageClass object that is the cluster default, when the input makes exactly one class the default. */
export function defaultStorageClass(index: ObjectIndex): IndexedObject | undefined {
  const defaults = defaultStorageClasses(index);
  return defaults.length === 1 ? defaults[0]?.storageClass : undefined;
}

/** True when a claim spec names no class, so it takes the cluster's default (`""` names "no class"). */
export function takesDefaultClass(claim: ClaimSource): boolean {
  return storageClassNameOf(claim.spec, claim.annotations) === undefined;
}

/**
 * The StorageClass a claim spec provisions from: the one it names, or the default class when it
 * names none. An empty `storageClassName` means "no class" (static binding).
 */
export function storageClassOfSpec(
  index: ObjectIndex,
  claim: ClaimSource,
  fallback: IndexedObject | undefined,
): IndexedObject | undefined {
  if (claim.object) {
    const named = index.storageClassOfClaim(claim.object);
    if (named) return named;
  }
  const className = storageClassNameOf(claim.spec, claim.annotations);
  if (className === '') return undefined;
  if (className !== undefined) return index.get('StorageClass', undefined, className, claim.object);
  return fallback;
}

/**
 * The StorageClass a claim provisions from, and its name: the one it names, else the one default
 * class; the object only when the input holds it, the name also when it does not (a default a
 * kustomize patch or a Helm release names).
 */
export function storageClassOf(
  index: ObjectIndex,
  claim: ClaimSource,
  defaults: readonly DefaultStorageClass[],
): { storageClass?: IndexedObject; className?: string } {
  const [onlyDefault] = defaults.length === 1 ? defaults : [];
  const storageClass = storageClassOfSpec(index, claim, onlyDefault?.storageClass);
  const className =
    storageClass?.ref.name ??
    storageClassNameOf(claim.spec, claim.annotations) ??
    (takesDefaultClass(claim) ? onlyDefault?.name : undefined);
  return { ...(storageClass ? { storageClass } : {}), ...(className !== undefined ? { className } : {}) };
}

/**
 * Every claim spec in the set: PersistentVolumeClaims (but one without a name, which the API server
 * refuses), StatefulSet claim templates, generic ephemeral volumes.
 */
export function claimSpecs(index: ObjectIndex): ClaimSpecLocation[] {
  const specs: ClaimSpecLocation[] = [];
  for (const claim of index.ofKind('PersistentVolumeClaim')) {
    const spec = getRecord(claim.raw, 'spec');
    // Without a name or generateName the API server refuses the claim ("name or generateName is
    // required"): a skeleton a program fills in (red-hat-storage/ocs-ci templates), never provisioned.
    if (claim.ref.name === undefined && asString(getRecord(claim.raw, 'metadata')?.generateName) === undefined)
      continue;
    if (spec) specs.push({ owner: claim, spec, path: 'spec', annotations: claim.annotations, object: claim });
  }
  for (const statefulSet of index.ofKind('StatefulSet')) {
    for (const { spec, position, annotations } of claimTemplatesOf(statefulSet))
      if (spec)
        specs.push({ owner: statefulSet, spec, path: `spec.volumeClaimTemplates[${position}].spec`, annotations });
  }
  for (const template of index.podTemplates()) {
    asArray(template.spec.volumes).forEach((volume, position) => {
      const claimTemplate = getRecord(volume, 'ephemeral', 'volumeClaimTemplate');
      const spec = getRecord(claimTemplate, 'spec');
      if (spec)
        specs.push({
          owner: template.owner,
          spec,
          annotations: readAnnotations(getRecord(claimTemplate, 'metadata')),
          path: `${template.path}.volumes[${position}].ephemeral.volumeClaimTemplate.spec`,
        });
    });
  }
  return specs;
}

/**
 * The pod volumes of a template that name a claim, with their name and position. A StatefulSet's volume of
 * the name of one of its claim templates is none: the controller replaces it with the template's
 * claim (kubernetes pkg/controller/statefulset/stateful_set_utils.go, updateStorage).
 */
/** A pod volume that names a claim: its own name, its place in `volumes`, the claim, and whether it is read-only. */
export interface ClaimVolume {
  readonly name?: string;
  readonly position: number;
  readonly claimName: string;
  readonly readOnly: boolean;
}

export function claimVolumes(podSpec: JsonRecord, owner?: IndexedObject): ClaimVolume[] {
  const replaced = new Set((owner ? claimTemplatesOf(owner) : []).flatMap((template) => template.name ?? []));
  const result: ClaimVolume[] = [];
  asArray(podSpec.volumes).forEach((volume, position) => {
    const name = isRecord(volume) ? asString(volume.name) : undefined;
    if (replaced.has(name ?? '')) return;
    const source = isRecord(volume) ? asRecord(volume.persistentVolumeClaim) : undefined;
    const claimName = asString(source?.claimName);
    if (claimName !== undefined)
      result.push({
        ...(name !== undefined ? { name } : {}),
        position,
        claimName,
        readOnly: source?.readOnly === true,
      });
  });
  return result;
}

import { isClusterScopedKind } from './cluster-scoped-kinds';
import { JsonRecord, asArray, asRecord, asString, asStringList, getRecord, isRecord } from './json';
import { ObjectRef, ObjectSource } from './finding';
import { PodSpecLocation, customResourcePodSpecs, podSpecOf } from './pod-templates';
import { matchesLabelSelector } from './label-selector';
import { storageClassNameOf } from './storage-class-name';
import { parseQuantity } from './quantity';

/** One object of the validated set, with what rules need to know about it. */
export interface IndexedObject {
  /** The object as given. Read it through the helpers in `json.ts`: its shape is not trusted. */
  readonly raw: JsonRecord;
  readonly ref: ObjectRef;
  readonly source: ObjectSource;
  /** The object's annotations (string values only). */
  readonly annotations: Readonly<Record<string, string>>;
  /** Order in the input; findings are sorted by it. */
  readonly position: number;
}

/** A workload's pod template. */
export interface PodTemplate extends PodSpecLocation {
  readonly owner: IndexedObject;
}

/** A ServiceAccount's grant through one binding. */
export interface RoleGrant {
  readonly binding: IndexedObject;
  /** The Role or ClusterRole the binding names, when it is in the set. */
  readonly role?: IndexedObject;
  readonly roleRefKind?: string;
  readonly roleRefName?: string;
}

/** Kinds that live outside namespaces (the built-in list of cluster-scoped-kinds.ts): their `metadata.namespace` is meaningless. */
export function isClusterScoped(kind: string | undefined): boolean {
  return isClusterScopedKind(kind);
}

function key(kind: string | undefined, namespace: string | undefined, name: string | undefined): string {
  const ns = isClusterScoped(kind) ? '' : (namespace ?? '');
  return `${kind ?? ''}\u0000${ns}\u0000${name ?? ''}`;
}

/**
 * The string-valued annotations of an object's (or a claim template's) metadata. Most objects have
 * none: they share one empty record, as the index keeps one per object for the whole run.
 */
export function readAnnotations(metadata: JsonRecord | undefined): Readonly<Record<string, string>> {
  const annotations = asRecord(metadata?.annotations);
  if (!annotations) return NO_ANNOTATIONS;
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(annotations)) {
    if (typeof value === 'string') result[name] = value;
  }
  return result;
}

const NO_ANNOTATIONS: Readonly<Record<string, string>> = Object.freeze({});

function indexedObject(
  input: { readonly object: JsonRecord; readonly source?: ObjectSource },
  position: number,
): IndexedObject {
  const raw = input.object;
  return {
    raw,
    ref: objectRefOf(raw),
    source: input.source ?? {},
    annotations: readAnnotations(asRecord(raw.metadata)),
    position,
  };
}

/** What identifies an object (apiVersion, kind, namespace, name), from its fields that are strings. */
export function objectRefOf(object: JsonRecord): ObjectRef {
  const metadata = asRecord(object.metadata);
  return {
    apiVersion: asString(object.apiVersion),
    kind: asString(object.kind),
    namespace: asString(metadata?.namespace),
    name: asString(metadata?.name),
  };
}

/**
 * Everything rules look up, built once per validation in one pass over the objects, so
 * cross-object rules are map lookups and the total cost stays linear in the number of objects.
 *
 * Namespaces: an object without `metadata.namespace` is in "the namespace it will be applied
 * to", which is unknown; lookups from a namespaced object fall back to such objects.
 */
export class ObjectIndex {
  public readonly objects: readonly IndexedObject[];
  private readonly byKindMap = new Map<string, IndexedObject[]>();
  private readonly byKey = new Map<string, IndexedObject[]>();
  /** Per kind, its objects by name alone: built for a kind the first time it is asked for. */
  private readonly byNameOfKind = new Map<string, Map<string, IndexedObject[]>>();
  private readonly podTemplateList: PodTemplate[] = [];
  private readonly volumesByClaim = new Map<string, IndexedObject[]>();
  /** The volumes whose claimRef names a claim, by the claim's name alone. */
  private readonly volumesByClaimName = new Map<string, IndexedObject[]>();
  private readonly unclaimedVolumesByClass = new Map<string, IndexedObject[]>();
  private readonly offeringVolumes = new Map<string, IndexedObject[]>();
  /** Which claim beside it takes each unclaimed volume, and the inverse: built on the first lookup (`reservations`). */
  private reserved?: VolumeReservations;
  /** The volume each claim looked up binds to (`volumeForClaim`), kept once found. */
  private readonly boundVolumes = new Map<IndexedObject, IndexedObject | undefined>();
  private readonly grantsBySubject = new Map<string, RoleGrant[]>();
  private readonly grantsBySubjectName = new Map<string, RoleGrant[]>();
  private readonly bindingsByRole = new Map<string, IndexedObject[]>();
  private readonly grantsCache = new Map<string, readonly RoleGrant[]>();
  private readonly derivedData = new Map<(index: ObjectIndex) => unknown, unknown>();
  private readonly patchesByKind = new Map<string, IndexedObject[]>();

  /**
   * @param patches kustomize patches of objects in or beyond the set: not objects of it, kept
   * apart for the rules that read what a patch says of its base (`patchesOfKind`).
   */
  constructor(
    inputs: ReadonlyArray<{ readonly object: JsonRecord; readonly source?: ObjectSource }>,
    patches: ReadonlyArray<{ readonly object: JsonRecord; readonly source?: ObjectSource }> = [],
  ) {
    const objects: IndexedObject[] = [];
    inputs.forEach((input, position) => {
      const indexed = indexedObject(input, position);
      objects.push(indexed);
      this.add(indexed);
    });
    this.objects = objects;
    this.indexGrants();
    patches.forEach((input, i) => {
      const patch = indexedObject(input, objects.length + i);
      appendTo(this.patchesByKind, patch.ref.kind ?? '', patch);
    });
  }

  /** The kustomize patches of a kind in the input, in input order (strategic-merge fragments). */
  public patchesOfKind(kind: string): readonly IndexedObject[] {
    return this.patchesByKind.get(kind) ?? [];
  }

  /** All objects of a kind, in input order. */
  public ofKind(kind: string): readonly IndexedObject[] {
    return this.byKindMap.get(kind) ?? [];
  }

  /**
   * The object of `kind` named `name` as seen from `namespace`: the one in that namespace, else
   * one without a namespace. Cluster-scoped kinds ignore the namespace. When several files define
   * it (alternative examples, variants), the copy nearest to `from` is taken: same file, then same
   * directory, then the one whose directory shares the most leading directories with `from`'s, then
   * the first in input order.
   */
  public get(
    kind: string,
    namespace: string | undefined,
    name: string | undefined,
    from?: IndexedObject,
  ): IndexedObject | undefined {
    if (name === undefined) return undefined;
    return nearest(
      this.byKey.get(key(kind, namespace, name)) ??
        (namespace ? this.byKey.get(key(kind, undefined, name)) : undefined),
      from,
    );
  }

  /**
   * An object by kind and name in whatever namespace it is written in: what a reference from an
   * object written without a namespace may mean, as both get theirs when applied (`kubectl apply -n`).
   */
  public getInAnyNamespace(kind: string, name: string, from?: IndexedObject): IndexedObject | undefined {
    let byName = this.byNameOfKind.get(kind);
    if (!byName) {
      byName = new Map();
      for (const object of this.ofKind(kind))
        if (object.ref.name !== undefined) appendTo(byName, object.ref.name, object);
      this.byNameOfKind.set(kind, byName);
    }
    return nearest(byName.get(name), from);
  }

  /** Every pod template in the set: Pods, PodTemplates and every workload kind including CronJob. */
  public podTemplates(): readonly PodTemplate[] {
    return this.podTemplateList;
  }

  /**
   * The PersistentVolume a claim binds to: named by the claim's `volumeName`, claiming it by
   * `claimRef`, or, as the PV controller binds before it provisions, an unclaimed volume of the class
   * the claim names that offers every access mode and at least the storage the claim asks for (the
   * "manual" class of the Kubernetes tutorials), and that the claim's label selector matches when it
   * has one.
   */
  public volumeForClaim(claim: IndexedObject): IndexedObject | undefined {
    // Several rules ask for the volume of the same claims: found once per claim.
    if (this.boundVolumes.has(claim)) return this.boundVolumes.get(claim);
    const volume = this.findVolumeForClaim(claim);
    this.boundVolumes.set(claim, volume);
    return volume;
  }

  private findVolumeForClaim(claim: IndexedObject): IndexedObject | undefined {
    const spec = getRecord(claim.raw, 'spec');
    const volumeName = asString(spec?.volumeName);
    if (volumeName !== undefined) {
      const named = this.get('PersistentVolume', undefined, volumeName, claim);
      if (named) return named;
    }
    // A claim written without a namespace gets one when applied (`kubectl apply -n`): a volume
    // that claims it by name in any namespace may be its own.
    const claimed =
      this.volumesByClaim.get(key('PersistentVolumeClaim', claim.ref.namespace, claim.ref.name)) ??
      this.volumesByClaim.get(key('PersistentVolumeClaim', undefined, claim.ref.name)) ??
      (claim.ref.namespace === undefined && claim.ref.name !== undefined
        ? this.volumesByClaimName.get(claim.ref.name)
        : undefined);
    // The binder pre-binds a volume to the claim its claimRef names only when their classes match:
    // a volume another project of the repository wrote for its own claim of that name has its own class.
    const className = storageClassNameOf(spec, claim.annotations);
    const sameClass = className === undefined || !claimed ? claimed : volumesOfClass(claimed, className);
    if (sameClass && sameClass.length > 0) return nearest(sameClass, claim);
    if (volumeName !== undefined) return undefined;
    // A claim with a selector is never provisioned for: it binds to a volume its selector matches.
    return spec?.selector !== undefined
      ? this.selectedVolumeFor(spec, claim)
      : this.unclaimedVolumeFor(spec, claim, claim.annotations);
  }

  /**
   * The unclaimed PersistentVolume a claim with a label selector binds to: of the claim's class (none
   * when it names none), offering its access modes, with labels its selector matches.
   */
  private selectedVolumeFor(spec: JsonRecord, claim: IndexedObject): IndexedObject | undefined {
    const className = storageClassNameOf(spec, claim.annotations) ?? '';
    const selected = this.volumesOffering(className, asStringList(spec.accessModes)).filter(
      (volume) => matchesLabelSelector(getRecord(volume.raw, 'metadata')?.labels, spec.selector) === true,
    );
    return nearest(largeEnough(selected, spec), claim);
  }

  /**
   * The pre-provisioned volume a claim spec (a claim's or a claim template's) binds to by class: an
   * unclaimed PersistentVolume of the class it names that offers every access mode and at least the
   * storage it asks for.
   */
  public unclaimedVolumeFor(
    spec: JsonRecord | undefined,
    from?: IndexedObject,
    annotations?: Readonly<Record<string, string>>,
  ): IndexedObject | undefined {
    const offering = this.offeringFor(spec, annotations);
    if (offering.length === 0) return undefined;
    const { volumeOfClaim, claimOfVolume } = this.reservations();
    const own = from && volumeOfClaim.get(from);
    if (own && memberOf(offering, own)) return own;
    const free = unreserved(offering, claimOfVolume);
    return free.length > 0 ? nearestWithinReach(free, from) : undefined;
  }

  /** The unclaimed volumes a claim spec could bind by class: of its class, offering its access modes and storage. */
  private offeringFor(
    spec: JsonRecord | undefined,
    annotations: Readonly<Record<string, string>> | undefined,
  ): readonly IndexedObject[] {
    // A claim that names no class gets the cluster's default class when it is created (the
    // DefaultStorageClass admission plugin), and then binds only volumes of that class: a volume of no
    // class written beside it stays unbound wherever the cluster has a default, as every managed
    // cluster, k3s, kind and minikube do. The claim is provisioned for instead.
    const className = storageClassNameOf(spec, annotations);
    if (className === undefined) return [];
    return largeEnough(this.volumesOffering(className, asStringList(spec?.accessModes)), spec);
  }

  /**
   * Which claim takes each unclaimed volume: the claim that names it by `volumeName`, else a claim
   * written in the volume's own directory that binds it by class. The PV controller binds a volume to
   * one claim, and the claim applied with it (pv.yaml and pvc.yaml side by side) takes it, not a claim
   * of another app that would also fit. Claims of one directory take its volumes in input order, one
   * each. Computed once, on the first lookup.
   */
  private reservations(): VolumeReservations {
    if (this.reserved) return this.reserved;
    const claimOfVolume = new Map<IndexedObject, IndexedObject>();
    const volumeOfClaim = new Map<IndexedObject, IndexedObject>();
    // A volume a claim names binds to that claim, wherever the claim is written: it is no longer free
    // for a claim that binds by class (sohaib1khan/kubernetes_craft: wikijs-pv is wikijs-pvc's, not nginx-pvc's).
    for (const claim of this.ofKind('PersistentVolumeClaim')) {
      const volumeName = asString(getRecord(claim.raw, 'spec')?.volumeName);
      const named = volumeName === undefined ? undefined : this.get('PersistentVolume', undefined, volumeName, claim);
      if (!named || claimOfVolume.has(named)) continue;
      claimOfVolume.set(named, claim);
      volumeOfClaim.set(claim, named);
    }
    for (const claim of this.ofKind('PersistentVolumeClaim')) {
      const spec = getRecord(claim.raw, 'spec');
      if (asString(spec?.volumeName) !== undefined || spec?.selector !== undefined) continue;
      if (this.volumesByClaim.has(key('PersistentVolumeClaim', claim.ref.namespace, claim.ref.name))) continue;
      const beside = volumesByDirectory(this.offeringFor(spec, claim.annotations))
        .get(directoryOf(claim.source.file))
        ?.find((volume) => !claimOfVolume.has(volume));
      if (!beside) continue;
      claimOfVolume.set(beside, claim);
      volumeOfClaim.set(claim, beside);
    }
    this.reserved = { claimOfVolume, volumeOfClaim };
    return this.reserved;
  }

  /**
   * The unclaimed volumes of a class that offer every access mode wanted. One list per class and
   * modes, kept: `nearest` indexes a list's places once, so a lookup stays O(1) however many copies
   * of the volumes the set holds.
   */
  private volumesOffering(className: string, wanted: readonly string[]): readonly IndexedObject[] {
    const offeringKey = `${className}\u0000${wanted.join(',')}`;
    let offering = this.offeringVolumes.get(offeringKey);
    if (!offering) {
      offering = (this.unclaimedVolumesByClass.get(className) ?? []).filter((volume) => {
        const offered = asStringList(getRecord(volume.raw, 'spec')?.accessModes);
        return wanted.every((mode) => offered.includes(mode));
      });
      this.offeringVolumes.set(offeringKey, offering);
    }
    return offering;
  }

  /** The StorageClass a claim names, when it is in the set. */
  public storageClassOfClaim(claim: IndexedObject): IndexedObject | undefined {
    const spec = getRecord(claim.raw, 'spec');
    const className = storageClassNameOf(spec, claim.annotations);
    return className === undefined ? undefined : this.get('StorageClass', undefined, className, claim);
  }

  /**
   * The bindings (and their roles, when present) that name a ServiceAccount as subject: those of
   * its namespace and those whose subject has no namespace (filled in at apply time, as kustomize's
   * `namespace:` does). A workload without a namespace gets one only when applied, so every
   * binding of a ServiceAccount of that name may be its own.
   */
  public grantsFor(namespace: string | undefined, serviceAccountName: string): readonly RoleGrant[] {
    if (namespace === undefined) return this.grantsBySubjectName.get(serviceAccountName) ?? [];
    const subjectKey = key('ServiceAccount', namespace, serviceAccountName);
    let grants = this.grantsCache.get(subjectKey);
    if (!grants) {
      grants = [
        ...(this.grantsBySubject.get(subjectKey) ?? []),
        ...(this.grantsBySubject.get(key('ServiceAccount', undefined, serviceAccountName)) ?? []),
      ];
      this.grantsCache.set(subjectKey, grants);
    }
    return grants;
  }

  /**
   * The RoleBindings and ClusterRoleBindings whose roleRef names `role`: for a Role, only bindings
   * in its namespace (or without one, as the role is then placed at apply time too).
   */
  public bindingsOf(role: IndexedObject): readonly IndexedObject[] {
    const bindings = this.bindingsByRole.get(key(role.ref.kind, undefined, role.ref.name)) ?? [];
    if (role.ref.kind !== 'Role') return bindings;
    return bindings.filter((binding) => binding.ref.namespace === role.ref.namespace);
  }

  /**
   * Data derived from the whole set that several rules read (parsed kubelet flags, leader-election
   * settings): `compute` runs once per validation and its result is shared, keyed by the function.
   */
  public derived<T>(compute: (index: ObjectIndex) => T): T {
    if (this.derivedData.has(compute)) return this.derivedData.get(compute) as T;
    const value = compute(this);
    this.derivedData.set(compute, value);
    return value;
  }

  private add(object: IndexedObject): void {
    const kind = object.ref.kind ?? '';
    let list = this.byKindMap.get(kind);
    if (!list) this.byKindMap.set(kind, (list = []));
    list.push(object);
    appendTo(this.byKey, key(object.ref.kind, object.ref.namespace, object.ref.name), object);

    const podSpec = podSpecOf(object.ref.kind, object.raw);
    if (podSpec) this.podTemplateList.push({ owner: object, ...podSpec });
    else
      for (const custom of customResourcePodSpecs(object.raw)) this.podTemplateList.push({ owner: object, ...custom });

    if (kind === 'PersistentVolume' && !refusedLocalVolume(object.raw)) {
      const claimRef = getRecord(object.raw, 'spec', 'claimRef');
      const claimName = asString(claimRef?.name);
      if (claimName !== undefined) {
        appendTo(this.volumesByClaim, key('PersistentVolumeClaim', asString(claimRef?.namespace), claimName), object);
        appendTo(this.volumesByClaimName, claimName, object);
      } else {
        // A volume without a class is matched by claims that ask for the class "".
        appendTo(
          this.unclaimedVolumesByClass,
          storageClassNameOf(getRecord(object.raw, 'spec'), object.annotations) ?? '',
          object,
        );
      }
    }
  }

  private indexGrants(): void {
    for (const binding of [...this.ofKind('RoleBinding'), ...this.ofKind('ClusterRoleBinding')]) {
      const roleRef = getRecord(binding.raw, 'roleRef');
      const roleRefKind = asString(roleRef?.kind);
      const roleRefName = asString(roleRef?.name);
      const role =
        roleRefKind === 'Role' || roleRefKind === 'ClusterRole'
          ? this.get(roleRefKind, binding.ref.namespace, roleRefName, binding)
          : undefined;
      if (roleRefKind !== undefined && roleRefName !== undefined)
        appendTo(this.bindingsByRole, key(roleRefKind, undefined, roleRefName), binding);
      for (const subject of asArray(binding.raw.subjects)) {
        if (!isRecord(subject) || subject.kind !== 'ServiceAccount') continue;
        const name = asString(subject.name);
        if (name === undefined) continue;
        const subjectKey = key('ServiceAccount', asString(subject.namespace) ?? binding.ref.namespace, name);
        const grant = { binding, role, roleRefKind, roleRefName };
        let grants = this.grantsBySubject.get(subjectKey);
        if (!grants) this.grantsBySubject.set(subjectKey, (grants = []));
        grants.push(grant);
        let named = this.grantsBySubjectName.get(name);
        if (!named) this.grantsBySubjectName.set(name, (named = []));
        named.push(grant);
      }
    }
  }
}

/**
 * A `local` PersistentVolume without nodeAffinity, which the API server refuses ("Local volume
 * requires node affinity"): it never exists, so no claim binds it (DataShades/ckan-kubernetes: its
 * claim of class gp2 gets an EBS disk instead).
 */
function refusedLocalVolume(volume: JsonRecord): boolean {
  const spec = getRecord(volume, 'spec');
  return asRecord(spec?.local) !== undefined && getRecord(spec, 'nodeAffinity', 'required') === undefined;
}

function appendTo(map: Map<string, IndexedObject[]>, mapKey: string, object: IndexedObject): void {
  const list = map.get(mapKey);
  if (list) list.push(object);
  else map.set(mapKey, [object]);
}

/** An object without a namespace goes to whatever namespace it is applied to, so it may match any. */
export function sameNamespace(a: IndexedObject, b: IndexedObject): boolean {
  return a.ref.namespace === undefined || b.ref.namespace === undefined || a.ref.namespace === b.ref.namespace;
}

/** The directory part of a file path ('' for none). */
export function directoryOf(file: string | undefined): string {
  if (file === undefined) return '';
  return file.slice(0, Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'), 0));
}

/**
 * The volumes whose capacity covers the storage a claim spec requests: the binder never gives a
 * claim a smaller volume (a 1Gi hostPath volume written for another app is no 5Gi claim's). A
 * capacity or request that is missing or does not parse excludes nothing. The list itself when
 * nothing is excluded, so `nearest` keeps its index of it.
 */
function largeEnough(volumes: readonly IndexedObject[], spec: JsonRecord | undefined): readonly IndexedObject[] {
  const request = asString(getRecord(spec, 'resources', 'requests')?.storage);
  const requested = request === undefined ? undefined : parseQuantity(request);
  if (requested === undefined) return volumes;
  // One list per list and request, kept: `nearest` indexes a list once, so a lookup must get the
  // same list back, or many copies of a claim would each index every copy of the volumes.
  let byRequest = LARGE_ENOUGH.get(volumes);
  if (!byRequest) LARGE_ENOUGH.set(volumes, (byRequest = new Map()));
  let fitting = byRequest.get(requested);
  if (!fitting) {
    const kept = volumes.filter((volume) => {
      const capacity = asString(getRecord(volume.raw, 'spec', 'capacity')?.storage);
      const offered = capacity === undefined ? undefined : parseQuantity(capacity);
      return offered === undefined || offered >= requested;
    });
    fitting = kept.length === volumes.length ? volumes : kept;
    byRequest.set(requested, fitting);
  }
  return fitting;
}

const LARGE_ENOUGH = new WeakMap<readonly IndexedObject[], Map<number, readonly IndexedObject[]>>();

/** The static volumes that claims beside them take (ObjectIndex.reservations), both ways. */
interface VolumeReservations {
  readonly claimOfVolume: ReadonlyMap<IndexedObject, IndexedObject>;
  readonly volumeOfClaim: ReadonlyMap<IndexedObject, IndexedObject>;
}

/**
 * A list's volumes by the directory of their file, in list order, kept per list: a claim looks only
 * at the volumes beside it, however many copies of them the list holds elsewhere.
 */
const BY_DIRECTORY = new WeakMap<readonly IndexedObject[], ReadonlyMap<string, readonly IndexedObject[]>>();

function volumesByDirectory(volumes: readonly IndexedObject[]): ReadonlyMap<string, readonly IndexedObject[]> {
  let byDirectory = BY_DIRECTORY.get(volumes);
  if (!byDirectory) {
    const grouped = new Map<string, IndexedObject[]>();
    for (const volume of volumes) appendTo(grouped, directoryOf(volume.source.file), volume);
    BY_DIRECTORY.set(volumes, (byDirectory = grouped));
  }
  return byDirectory;
}

/** A list's members as a set, kept per list: membership stays O(1) however many copies the list holds. */
const MEMBERS = new WeakMap<readonly IndexedObject[], ReadonlySet<IndexedObject>>();

function memberOf(list: readonly IndexedObject[], object: IndexedObject): boolean {
  let members = MEMBERS.get(list);
  if (!members) MEMBERS.set(list, (members = new Set(list)));
  return members.has(object);
}

/**
 * The volumes of a list that no claim beside them takes, kept per list (the list itself when none
 * is taken), so `nearest` indexes it once.
 */
const UNRESERVED = new WeakMap<readonly IndexedObject[], readonly IndexedObject[]>();

function unreserved(
  volumes: readonly IndexedObject[],
  reservedFor: ReadonlyMap<IndexedObject, IndexedObject>,
): readonly IndexedObject[] {
  let free = UNRESERVED.get(volumes);
  if (!free) {
    const kept = volumes.filter((volume) => !reservedFor.has(volume));
    free = kept.length === volumes.length ? volumes : kept;
    UNRESERVED.set(volumes, free);
  }
  return free;
}

/**
 * The volume a claim binds to by class alone, chosen as `nearest` does, but only among volumes
 * within reach of the claim's file: below the directory two levels above the claim's own
 * (`ch05/todo-list/pv.yaml` for `ch05/lab/solution/pvc.yaml`, `k8s/pv/` for `k8s/pvc/`). A
 * repository of independent examples (a book's chapters, a project's docs) holds volumes written
 * for other examples' claims, which the claim is never applied with.
 */
function nearestWithinReach(
  candidates: readonly IndexedObject[],
  from: IndexedObject | undefined,
): IndexedObject | undefined {
  const file = from?.source.file;
  if (file === undefined) return candidates[0];
  // `nearest` falls back to the candidate sharing the most directories: if it is out of reach, all are.
  const near = nearest(candidates, from);
  const reach = directoriesOf(file).length - 2;
  return near && sharedDirectories(near.source.file, file) >= reach ? near : undefined;
}

/**
 * The volumes of a list that are of a class, kept per list and class: `nearest` indexes a list
 * once, so a lookup must get the same list back, not a new one per claim.
 */
const VOLUMES_OF_CLASS = new WeakMap<readonly IndexedObject[], Map<string, readonly IndexedObject[]>>();

function volumesOfClass(volumes: readonly IndexedObject[], className: string): readonly IndexedObject[] {
  let byClass = VOLUMES_OF_CLASS.get(volumes);
  if (!byClass) VOLUMES_OF_CLASS.set(volumes, (byClass = new Map()));
  let ofClass = byClass.get(className);
  if (!ofClass) {
    const matching = volumes.filter(
      (volume) => (storageClassNameOf(getRecord(volume.raw, 'spec'), volume.annotations) ?? '') === className,
    );
    ofClass = matching.length === volumes.length ? volumes : matching;
    byClass.set(className, ofClass);
  }
  return ofClass;
}

/** Where the copies of one object sit, by file and by directory (the first copy of each). */
interface CopyPlaces {
  readonly byFile: ReadonlyMap<string | undefined, IndexedObject>;
  readonly byDirectory: ReadonlyMap<string, IndexedObject>;
}

/** Built once per list of copies, on the first lookup that needs it: a lookup stays O(1) however many copies. */
const COPY_PLACES = new WeakMap<readonly IndexedObject[], CopyPlaces>();

function copyPlaces(candidates: readonly IndexedObject[]): CopyPlaces {
  let places = COPY_PLACES.get(candidates);
  if (!places) {
    const byFile = new Map<string | undefined, IndexedObject>();
    const byDirectory = new Map<string, IndexedObject>();
    for (const candidate of candidates) {
      if (!byFile.has(candidate.source.file)) byFile.set(candidate.source.file, candidate);
      const directory = directoryOf(candidate.source.file);
      if (!byDirectory.has(directory)) byDirectory.set(directory, candidate);
    }
    places = { byFile, byDirectory };
    COPY_PLACES.set(candidates, places);
  }
  return places;
}

/** Of several copies of one object, the one in `from`'s file, else its directory, else the one sharing most of its path. */
function nearest(
  candidates: readonly IndexedObject[] | undefined,
  from: IndexedObject | undefined,
): IndexedObject | undefined {
  if (!candidates || candidates.length <= 1 || from?.source.file === undefined) return candidates?.[0];
  const places = copyPlaces(candidates);
  return (
    places.byFile.get(from.source.file) ??
    places.byDirectory.get(directoryOf(from.source.file)) ??
    deepestSharedDirectory(candidates, from.source.file)
  );
}

/**
 * The candidate whose directory shares the most leading directories with `file`'s (a claim in
 * `scripts/k8s/pv/` for a Job in `scripts/k8s/`, not one in `archive/`); the first in input order
 * among equals. `file`'s directories are walked upwards through an index of every directory that
 * holds a candidate below it, built once per list: a lookup costs the path's depth, not the number
 * of copies (a repository copied 200 times stays linear).
 */
function deepestSharedDirectory(candidates: readonly IndexedObject[], file: string): IndexedObject | undefined {
  const byAncestor = ancestorPlaces(candidates);
  for (let directory = directoryOf(file); ; directory = directoryOf(directory)) {
    const found = byAncestor.get(directory);
    if (found) return found;
    if (directory === '') return candidates[0];
  }
}

/** Built on the first lookup that needs it: most lists are answered by file or directory alone. */
const ANCESTOR_PLACES = new WeakMap<readonly IndexedObject[], ReadonlyMap<string, IndexedObject>>();

function ancestorPlaces(candidates: readonly IndexedObject[]): ReadonlyMap<string, IndexedObject> {
  let places = ANCESTOR_PLACES.get(candidates);
  if (!places) {
    const byAncestor = new Map<string, IndexedObject>();
    for (const candidate of candidates) {
      for (let directory = directoryOf(candidate.source.file); ; directory = directoryOf(directory)) {
        if (!byAncestor.has(directory)) byAncestor.set(directory, candidate);
        if (directory === '') break;
      }
    }
    places = byAncestor;
    ANCESTOR_PLACES.set(candidates, places);
  }
  return places;
}

/** How many leading directories two files' paths share. */
function sharedDirectories(file: string | undefined, other: string): number {
  const mine = directoriesOf(file);
  const theirs = directoriesOf(other);
  let depth = 0;
  while (depth < mine.length && depth < theirs.length && mine[depth] === theirs[depth]) depth++;
  return depth;
}

function directoriesOf(file: string | undefined): string[] {
  return directoryOf(file).split(/[\\/]/);
}

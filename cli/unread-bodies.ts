import { JsonRecord, asRecord, asString } from '../validators/json';

/**
 * Kinds whose body (all but apiVersion, kind and metadata) no rule reads. A CustomResourceDefinition
 * is the largest object of most repositories (an OpenAPI schema per version: on 89 public
 * repositories, 61% of all object data), and rules judge what runs, not the API it defines. A rule
 * that starts to read one of these kinds must take it out of this set; a test guards the scopes.
 */
export const UNREAD_BODY_KINDS: ReadonlySet<string> = new Set(['CustomResourceDefinition']);

/**
 * The objects of one file whose body lint need not keep: of a kind in UNREAD_BODY_KINDS, and the
 * only object of that kind and name in the file. Two definitions of one name in a file are kept
 * whole, so `duplicate-object` can still tell whether they differ (it compares within a file).
 */
export function droppableBodies(objects: readonly JsonRecord[]): Set<JsonRecord> {
  const count = new Map<string, number>();
  const key = (object: JsonRecord) => `${asString(object.kind) ?? ''}\u0000${nameOf(object) ?? ''}`;
  const candidates = objects.filter((object) => UNREAD_BODY_KINDS.has(asString(object.kind) ?? ''));
  for (const object of candidates) count.set(key(object), (count.get(key(object)) ?? 0) + 1);
  return new Set(candidates.filter((object) => nameOf(object) !== undefined && count.get(key(object)) === 1));
}

/**
 * The object with only what identifies it: apiVersion, kind and metadata (annotations included), and
 * of a CustomResourceDefinition the names it serves (`spec.names`: a few words beside its schema),
 * by which object-without-type knows a kind written without its apiVersion is a Kubernetes object's.
 */
export function identityOnly(object: JsonRecord): JsonRecord {
  const kept: JsonRecord = {};
  for (const field of ['apiVersion', 'kind', 'metadata'] as const) if (field in object) kept[field] = object[field];
  const names = asRecord(asRecord(object.spec)?.names);
  if (names) kept.spec = { names };
  return kept;
}

function nameOf(object: JsonRecord): string | undefined {
  return asString(asRecord(object.metadata)?.name);
}

/**
 * Safe readers for objects of unknown shape.
 *
 * Rules run on anything a user can write in YAML: `metadata: 5`, `containers: null`,
 * `accessModes: ReadWriteMany` as a string. Every read goes through these helpers so a field of
 * the wrong type reads as "absent" instead of throwing.
 */

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asRecord(value: unknown): JsonRecord | undefined {
  return isRecord(value) ? value : undefined;
}

export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Numbers in manifests arrive as numbers or as numeric strings (`replicas: "2"` from templating). */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return undefined;
}

/** Reads a nested record by keys, stopping at the first non-record. */
export function getRecord(value: unknown, ...keys: string[]): JsonRecord | undefined {
  let current: unknown = value;
  for (const key of keys) {
    const record = asRecord(current);
    if (!record) return undefined;
    current = record[key];
  }
  return asRecord(current);
}

/** Reads a nested value of any type by keys. */
export function getField(value: unknown, ...keys: string[]): unknown {
  let current: unknown = value;
  for (const key of keys) {
    const record = asRecord(current);
    if (!record) return undefined;
    current = record[key];
  }
  return current;
}

/** The value at a field path of keys and list indexes (`['spec', 'volumes', 1]`); undefined where it leaves the data. */
export function valueAt(object: unknown, path: ReadonlyArray<string | number>): unknown {
  let current = object;
  for (const segment of path) {
    if (Array.isArray(current) && typeof segment === 'number') current = current[segment];
    else if (isRecord(current) && typeof segment === 'string') current = current[segment];
    else return undefined;
  }
  return current;
}

/** A list of strings, accepting a lone string where YAML authors forgot the list. */
export function asStringList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return asArray(value).filter((item): item is string => typeof item === 'string');
}

/**
 * `asStringList` for a reading that is kept (a role's verbs, read once per role for the whole run):
 * a list that holds only strings is returned as it is, read-only, instead of copied, since a copy
 * made by filtering keeps spare capacity (on 40,000 objects, the copies of the roles' lists held 11 MB).
 */
export function asKeptStringList(value: unknown): readonly string[] {
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as readonly string[];
  return value === undefined ? NO_STRINGS : asStringList(value);
}

const NO_STRINGS: readonly string[] = Object.freeze([]);

/**
 * `table[key]` for a key that comes from the manifest: only the table's own entries count, so a
 * value such as `constructor` or `toString` does not find `Object.prototype`'s members.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

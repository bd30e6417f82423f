import { JsonRecord, isRecord } from './json';
import { isOpenShiftTemplate, renderedTemplateObjects } from './openshift-template';

/** One object of the input, with the indexes that lead to it through `items` of enclosing Lists. */
export interface ListedObject {
  readonly object: JsonRecord;
  /** `[3]` for `items[3]` of a List, `[3, 0]` for a List inside it; empty for a top-level object. */
  readonly itemIndexes: readonly number[];
  /** The field of the outermost list that holds it: `items` of a List, `objects` of an OpenShift Template. */
  readonly listField?: ListField;
}

/** Where a list keeps its objects. */
export type ListField = 'items' | 'objects';

/** Lists inside Lists deeper than this are not expanded (kubectl never writes more than one). */
const MAX_LIST_DEPTH = 8;

/**
 * The objects a document stands for: the document itself, or, for `kind: List` and every `*List`
 * kind with an `items` array (`kubectl get -o yaml` writes these; a raw ApiObject or an Included
 * file can hold one), each of its items, recursively; for an OpenShift Template, its `objects` as
 * `oc process` renders them with the parameters' defaults (openshift-template.ts). Every door (the
 * synth gate, the cdk8s plugin, the policy pack and `ballast lint`) expands Lists with this one
 * function, so an object wrapped in a List is checked the same way everywhere. Items that are not
 * Kubernetes objects (no kind and no apiVersion) are left out, as at the top level.
 */
export function listedObjects(document: unknown): ListedObject[] {
  const found: ListedObject[] = [];
  collect(document, [], undefined, found);
  return found;
}

/** True for a List kind with items: `List`, `PersistentVolumeList`, ... */
export function isListObject(value: unknown): value is JsonRecord & { items: unknown[] } {
  return isRecord(value) && typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items);
}

/** Helm values, kustomize patches without kind and other YAML are not objects to check. */
export function isKubernetesObject(value: unknown): value is JsonRecord {
  return isRecord(value) && ('kind' in value || 'apiVersion' in value);
}

/**
 * A mapping with neither kind nor apiVersion: a configuration file that is no Kubernetes object
 * (k3s, Talos, Kubespray variables), which ballast reads as an object of a kind of its own.
 */
export function isKindlessDocument(value: unknown): value is JsonRecord {
  return isRecord(value) && !('kind' in value) && !('apiVersion' in value);
}

function collect(
  value: unknown,
  itemIndexes: readonly number[],
  listField: ListField | undefined,
  found: ListedObject[],
): void {
  if (isListObject(value) && itemIndexes.length < MAX_LIST_DEPTH) {
    value.items.forEach((item, index) => collect(item, [...itemIndexes, index], listField ?? 'items', found));
  } else if (isOpenShiftTemplate(value) && itemIndexes.length === 0) {
    // Only a document that is a Template is processed: one inside a List (`oc get -o yaml`) is a
    // Template stored in the cluster, next to the objects it once made.
    renderedTemplateObjects(value).forEach((object, index) => collect(object, [index], 'objects', found));
  } else if (isKubernetesObject(value)) {
    found.push({ object: value, itemIndexes, ...(listField ? { listField } : {}) });
  }
}

import { loadAll as loadYamlDocuments } from 'js-yaml';
import { JsonRecord, asArray, asRecord, asString } from '../validators/json';
import { listedObjects } from '../validators/list-items';
import { KUBERNETES_YAML_SCHEMA } from '../validators/yaml-schema';
import { fieldPath } from '../validators/field-path';
import type { Interner } from './compact-document';

/** Where an object written as text inside another object's field sits in that text. */
export interface EmbeddedSource {
  /** The host object's field that holds the text (`stringData[ccm.yaml]`). */
  readonly field: string;
  /** Index of the YAML document in the text. */
  readonly documentIndex: number;
  /** Index in `items` when the object came out of a List (in `objects` of an OpenShift Template: `listField`). */
  readonly listItemIndex?: number;
  /** The field `listItemIndex` counts in, when it is not a List's `items`. */
  readonly listField?: 'objects';
  readonly text: string;
}

/** An object as the loader keeps it, with where it came from. */
interface Sourced<S> {
  readonly object: Record<string, unknown>;
  readonly source: S;
}

/** The Secret type Cluster API applies to workload clusters (addons.cluster.x-k8s.io). */
const RESOURCE_SET_SECRET_TYPE = 'addons.cluster.x-k8s.io/resource-set';

/**
 * The objects a Cluster API ClusterResourceSet applies to every workload cluster it selects: the
 * manifests written as the values of the Secrets and ConfigMaps it names (`spec.resources`), and of
 * any Secret of the resource-set type. Cluster templates install the CNI, the cloud controller
 * manager and CSI drivers this way, so their flags, volumes and RBAC are objects a cluster runs like
 * any other (kubernetes-sigs/cluster-api `exp/addons`: each value is a YAML or JSON stream, a Secret's
 * `data` base64-encoded). A value that does not parse is left to Cluster API to report.
 */
export function clusterResourceSetObjects<S extends object>(
  objects: ReadonlyArray<Sourced<S>>,
  interner: Interner,
): Array<Sourced<S & { readonly embeddedIn: EmbeddedSource }>> {
  const named = namedResources(objects);
  const embedded: Array<Sourced<S & { readonly embeddedIn: EmbeddedSource }>> = [];
  for (const host of objects) {
    const { object } = host;
    const kind = asString(object.kind);
    if (kind !== 'Secret' && kind !== 'ConfigMap') continue;
    const name = asString(asRecord(object.metadata)?.name);
    const isResourceSet =
      (kind === 'Secret' && object.type === RESOURCE_SET_SECRET_TYPE) ||
      (name !== undefined && named.has(`${kind}\u0000${name}`));
    if (!isResourceSet) continue;
    for (const { field, text } of manifestValues(object, kind)) {
      let documents: unknown[];
      try {
        documents = loadYamlDocuments(text, undefined, { schema: KUBERNETES_YAML_SCHEMA });
      } catch {
        continue;
      }
      documents.forEach((document, documentIndex) => {
        for (const { object: found, itemIndexes, listField } of listedObjects(document)) {
          const [listItemIndex] = itemIndexes;
          embedded.push({
            object: interner.compact(found) as Record<string, unknown>,
            source: {
              ...host.source,
              embeddedIn: {
                field,
                documentIndex,
                ...(listItemIndex !== undefined ? { listItemIndex } : {}),
                ...(listField === 'objects' ? { listField } : {}),
                text,
              },
            },
          });
        }
      });
    }
  }
  return embedded;
}

/** `Kind\0name` of every Secret and ConfigMap a ClusterResourceSet of the input names. */
function namedResources(objects: ReadonlyArray<Sourced<unknown>>): Set<string> {
  const named = new Set<string>();
  for (const { object } of objects) {
    if (
      object.kind !== 'ClusterResourceSet' ||
      !(asString(object.apiVersion) ?? '').startsWith('addons.cluster.x-k8s.io/')
    )
      continue;
    for (const resource of asArray(asRecord(object.spec)?.resources)) {
      const kind = asString(asRecord(resource)?.kind);
      const name = asString(asRecord(resource)?.name);
      if ((kind === 'Secret' || kind === 'ConfigMap') && name !== undefined) named.add(`${kind}\u0000${name}`);
    }
  }
  return named;
}

/** The manifest texts of a resource: a ConfigMap's `data`, a Secret's `stringData` and (decoded) `data`. */
function manifestValues(object: JsonRecord, kind: string): Array<{ field: string; text: string }> {
  const values: Array<{ field: string; text: string }> = [];
  const add = (map: string, decode: (value: string) => string) => {
    for (const [key, value] of Object.entries(asRecord(object[map]) ?? {}))
      if (typeof value === 'string') values.push({ field: fieldPath(map, key), text: decode(value) });
  };
  if (kind === 'ConfigMap') add('data', (value) => value);
  else {
    add('stringData', (value) => value);
    add('data', (value) => Buffer.from(value, 'base64').toString('utf8'));
  }
  return values;
}

import { ApiObject, JsonPatch } from 'cdk8s';
import { isClusterScopedKind } from '../validators/cluster-scoped-kinds';

/**
 * Keeps a cluster-scoped object free of a namespace whatever chart it is in. cdk8s stamps a
 * Chart's `namespace` onto every object in it when the object is created, cluster-scoped kinds
 * included; a JSON patch (cdk8s's own extension point) removes it from the output. Objects of
 * namespaced kinds are left alone.
 */
export function keepClusterScoped(apiObject: ApiObject): void {
  if (!isClusterScopedKind(apiObject.kind, apiObject.apiVersion)) return;
  if (apiObject.metadata.namespace === undefined) return;
  apiObject.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
}

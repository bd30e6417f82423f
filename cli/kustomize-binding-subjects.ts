import * as path from 'path';
import { isRecord } from '../validators/json';

/** An object read from the input, with the file it came from. */
interface PlacedObject {
  readonly object: Record<string, unknown>;
  readonly source: { readonly file: string };
}

const BINDING_KINDS = new Set(['RoleBinding', 'ClusterRoleBinding']);

/**
 * Moves the ServiceAccount subjects of role bindings as kustomize's `namespace:` does, so that a
 * binding still names the account its workload runs as. kustomize moves a subject named `default`
 * (its namespace transformer's default `setRoleBindingSubjects: defaultOnly`,
 * sigs.k8s.io/kustomize/api/filters/namespace) and, through name references, a subject naming a
 * ServiceAccount that the same `namespace:` moves (the kubebuilder layout: config/rbac binds
 * `controller-manager` in `system`). Call before the objects' own namespaces are replaced:
 * `namespaces` maps a normalized file path to the namespace kustomize gives its objects.
 */
export function moveBindingSubjects(objects: readonly PlacedObject[], namespaces: ReadonlyMap<string, string>): void {
  const movedAccounts = new Set<string>();
  // The kind is looked at first: normalizing every object's path cost more than the rest of the pass.
  for (const { object, source } of objects) {
    if (object.kind !== 'ServiceAccount' || !isRecord(object.metadata)) continue;
    const target = namespaces.get(path.normalize(source.file));
    if (target === undefined) continue;
    movedAccounts.add(accountKey(object.metadata.namespace, object.metadata.name, target));
  }
  for (const { object, source } of objects) {
    if (!BINDING_KINDS.has(String(object.kind)) || !Array.isArray(object.subjects)) continue;
    const target = namespaces.get(path.normalize(source.file));
    if (target === undefined) continue;
    for (const subject of object.subjects) {
      if (!isRecord(subject) || subject.kind !== 'ServiceAccount') continue;
      if (subject.name === 'default' || movedAccounts.has(accountKey(subject.namespace, subject.name, target)))
        subject.namespace = target;
    }
  }
}

/** A ServiceAccount by the namespace and name it is written with, and where kustomize moves it. */
function accountKey(namespace: unknown, name: unknown, target: string): string {
  return `${typeof namespace === 'string' ? namespace : ''}\u0000${String(name)}\u0000${target}`;
}

import { boundedEqual } from '../../bounded-equal';
import { apiGroupOf } from '../../cluster-scoped-kinds';
import { describeObject } from '../../finding';
import { IndexedObject, isClusterScoped } from '../../object-index';
import { Rule } from '../../rule';

/** Group, kind, namespace and name: what the API server keys an object by (the version is not part of it). */
function identity(object: IndexedObject): string | undefined {
  const { apiVersion, kind, namespace, name } = object.ref;
  if (kind === undefined || name === undefined) return undefined;
  const group = apiGroupOf(apiVersion ?? '');
  return [group, kind, isClusterScoped(kind) ? '' : (namespace ?? ''), name].join('\u0000');
}

/**
 * Where a copy is certainly applied together with another: the same file, or the same app for
 * objects without a file (a cdk8s app, a Pulumi stack). Copies in different files are not
 * reported: in real repositories they are alternatives (clusterctl's `cluster-template-*.yaml`,
 * kustomize bases and overlays, `rbac/` and `non-rbac/` variants, test inputs and expected
 * outputs), and every copy is still checked by every rule.
 */
function applyGroup(object: IndexedObject): string {
  return object.source.file ?? '';
}

function where(object: IndexedObject): string {
  const { file, line, constructPath } = object.source;
  if (constructPath !== undefined) return constructPath;
  if (file !== undefined) return line !== undefined ? `${file}:${line}` : file;
  return `input #${object.position + 1}`;
}

export const duplicateObject: Rule = {
  id: 'duplicate-object',
  severity: 'error',
  scope: ['*'],
  summary: 'The same object (group, kind, namespace, name) is defined twice, differently, in one file or app.',
  why:
    'The API server keeps one object per group, kind, namespace and name: `kubectl apply` of both ' +
    'definitions leaves whichever was applied last, and every check of the other definition is a check ' +
    'of something that will not run; which one runs depends on the order of documents. Reported when the ' +
    'copies differ and sit in one file, or one cdk8s app or Pulumi stack (applied together for certain). ' +
    'Identical copies change nothing; copies in different files are taken as alternatives (clusterctl ' +
    'templates, kustomize overlays, variants, test fixtures), and kustomize patches (files a kustomization ' +
    'lists under `patches`) are fragments, not objects. Every copy is still checked by every rule.',
  fix: 'Keep one definition: delete the copy, or give the objects different names (or namespaces).',
  example: {
    bad: [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: settings}',
      'data: {mode: a}',
      '---',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: settings}',
      'data: {mode: b}',
    ].join('\n'),
    good: ['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: settings}', 'data: {mode: a}'].join('\n'),
  },
  check(context) {
    const byIdentity = new Map<string, IndexedObject[]>();
    for (const object of context.index.objects) {
      const id = identity(object);
      if (id === undefined) continue;
      const key = `${applyGroup(object)}\u0000${id}`;
      const same = byIdentity.get(key);
      if (same) same.push(object);
      else byIdentity.set(key, [object]);
    }
    for (const copies of byIdentity.values()) {
      if (copies.length < 2) continue;
      const [first] = copies;
      // Identical copies (one manifest vendored twice) leave the same object whichever is applied last.
      if (first !== undefined && copies.every((other) => boundedEqual(first.raw, other.raw) === true)) continue;
      for (const copy of copies) {
        const others = copies.filter((other) => other !== copy);
        context.report(copy, {
          path: 'metadata.name',
          message:
            `${describeObject(copy.ref)} is defined ${copies.length} times (also at ${others.map(where).join(', ')})` +
            ' with different content: the cluster keeps only the one applied last, so what runs depends on the order of documents.',
        });
      }
    }
  },
};

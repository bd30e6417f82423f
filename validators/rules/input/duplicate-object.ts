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
 * Where a copy would be applied together with another: the same file, or the same directory
 * (`kubectl apply -f dir/`), or the same app for objects without a file (a cdk8s app, a Pulumi
 * stack). Copies in different directories are usually alternatives (kustomize bases and overlays,
 * `rbac/` and `non-rbac/` variants) and are not reported; the index then uses the first in path order.
 */
function applyGroup(object: IndexedObject): string {
  const file = object.source.file;
  if (file === undefined) return '';
  const slash = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
  return slash < 0 ? '.' : file.slice(0, slash);
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
  summary: 'The same object (group, kind, namespace, name) is defined more than once in one file, directory or app.',
  why:
    'The API server keeps one object per group, kind, namespace and name: `kubectl apply` of both ' +
    'definitions leaves whichever was applied last, and every check of the other definition is a check ' +
    'of something that will not run. When the definitions differ, which one runs depends on file order. ' +
    'Error when the copies differ and sit in one file or one cdk8s app or Pulumi stack (applied together for ' +
    'certain); warning when they sit in one directory (applied together by `kubectl apply -f dir/`) or are ' +
    'identical. Copies in different directories are taken as alternatives (kustomize overlays, variants) and ' +
    'not reported; rules then see the first in path order.',
  fix:
    'Keep one definition: delete the copy, or give the objects different names (or namespaces). An ' +
    'identical copy (the same manifest vendored twice) is harmless but worth removing.',
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
      const identical = first !== undefined && copies.every((other) => boundedEqual(first.raw, other.raw) === true);
      // In one file (or one app), both are certainly applied together; in one directory, only when
      // the directory is applied as a whole.
      const oneFile = copies.every((copy) => copy.source.file === first?.source.file);
      for (const copy of copies) {
        const others = copies.filter((other) => other !== copy);
        context.report(copy, {
          path: 'metadata.name',
          severity: identical || !oneFile ? 'warning' : 'error',
          message:
            `${describeObject(copy.ref)} is defined ${copies.length} times (also at ${others.map(where).join(', ')})` +
            (identical
              ? ', identically: the copies are harmless but redundant.'
              : ' with different content: the cluster keeps only the one applied last, so what runs depends on the order of files.'),
        });
      }
    }
  },
};

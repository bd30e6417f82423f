import * as path from 'path';
import { isKustomizationFile } from './kustomize-patches';

/** A kustomization met in the input: its object and the file it came from. */
interface KustomizationDocument {
  readonly object: Record<string, unknown>;
  readonly file: string;
}

/**
 * The namespace kustomize gives the objects of each file, where a kustomization in the input sets
 * `namespace:`: the files its `resources` name, and, through resource directories that hold a
 * kustomization of their own, theirs in turn. An outer kustomization's namespace wins, as kustomize
 * applies it last. Keys are normalized file paths.
 */
export function kustomizeNamespaces(kustomizations: readonly KustomizationDocument[]): Map<string, string> {
  const byDirectory = new Map<string, Record<string, unknown>>();
  for (const { object, file } of kustomizations)
    if (isKustomizationFile(file)) byDirectory.set(path.normalize(path.dirname(file)), object);
  const namespaces = new Map<string, string>();
  // Deepest first, so that an outer kustomization, applied later, overwrites what an inner one set.
  const directories = [...byDirectory.keys()].sort((a, b) => depth(b) - depth(a));
  for (const directory of directories) {
    const namespace = byDirectory.get(directory)?.namespace;
    if (typeof namespace !== 'string' || namespace === '') continue;
    for (const file of resourceFiles(directory, byDirectory, new Set())) namespaces.set(file, namespace);
  }
  return namespaces;
}

/** The files a kustomization's resources stand for, through nested kustomizations. */
function resourceFiles(
  directory: string,
  byDirectory: ReadonlyMap<string, Record<string, unknown>>,
  visited: Set<string>,
): string[] {
  if (visited.has(directory)) return [];
  visited.add(directory);
  const resources = byDirectory.get(directory)?.resources;
  if (!Array.isArray(resources)) return [];
  return resources.flatMap((entry) => {
    // Remote bases (URLs) and anything that is not a path are not in the input.
    if (typeof entry !== 'string' || /^[a-z]+:\/\/|^github\.com\//i.test(entry)) return [];
    const target = path.normalize(path.join(directory, entry));
    return byDirectory.has(target) ? resourceFiles(target, byDirectory, visited) : [target];
  });
}

function depth(directory: string): number {
  return directory.split(path.sep).length;
}

import * as path from 'path';
import { KustomizationDocument, kustomizationsByDirectory, resourceFiles } from './kustomize-resources';

/**
 * The namespace kustomize gives the objects of each file, where a kustomization in the input sets
 * `namespace:`: the files its `resources` name, and, through resource directories that hold a
 * kustomization of their own, theirs in turn. An outer kustomization's namespace wins, as kustomize
 * applies it last. Keys are normalized file paths.
 */
export function kustomizeNamespaces(kustomizations: readonly KustomizationDocument[]): Map<string, string> {
  const byDirectory = kustomizationsByDirectory(kustomizations);
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

function depth(directory: string): number {
  return directory.split(path.sep).length;
}

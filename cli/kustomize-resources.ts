import * as path from 'path';
import { isKustomizationFile } from './kustomize-patches';

/** A kustomization met in the input: its object and the file it came from. */
export interface KustomizationDocument {
  readonly object: Record<string, unknown>;
  readonly file: string;
}

/** The kustomizations of the input by their directory (normalized), the unit kustomize builds. */
export function kustomizationsByDirectory(
  kustomizations: readonly KustomizationDocument[],
): Map<string, Record<string, unknown>> {
  const byDirectory = new Map<string, Record<string, unknown>>();
  for (const { object, file } of kustomizations)
    if (isKustomizationFile(file)) byDirectory.set(path.normalize(path.dirname(file)), object);
  return byDirectory;
}

/**
 * Every file that a kustomization of the input names in its `resources`, directly or through a
 * resource directory with a kustomization of its own: `kustomize build` reads each of its documents
 * as an object and refuses one without apiVersion, kind or name. Keys are normalized file paths.
 */
export function kustomizeResourceFiles(kustomizations: readonly KustomizationDocument[]): Set<string> {
  const byDirectory = kustomizationsByDirectory(kustomizations);
  const files = new Set<string>();
  for (const directory of byDirectory.keys())
    for (const file of resourceFiles(directory, byDirectory, new Set())) files.add(file);
  return files;
}

/** The files a kustomization's resources stand for, through nested kustomizations. */
export function resourceFiles(
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

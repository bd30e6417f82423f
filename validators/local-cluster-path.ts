import * as path from 'path';
import type { ObjectIndex } from './object-index';
import { PROJECT_README_KIND, readmeDistributions } from './project-readme';

/** A single-machine Kubernetes distribution whose bundled default StorageClass keeps volumes on one node. */
export interface LocalDistribution {
  /** As the path writes it: `k3s`, `kind`, `minikube`. */
  readonly name: string;
  /** The default class it installs, node-local (rancher.io/local-path, k8s.io/minikube-hostpath, docker.io/hostpath). */
  readonly defaultClass: string;
  /** The README that names it, when no directory does (project-readme.ts). */
  readonly readme?: string;
}

/** By the word a directory name holds (`homelab-k3s`, `kind`, `minikube-labs`, `docker-desktop`). */
const DISTRIBUTIONS: ReadonlyMap<string, string> = new Map([
  ['k3s', 'local-path'],
  ['k3d', 'local-path'],
  ['kind', 'standard'],
  ['minikube', 'standard'],
  ['microk8s', 'microk8s-hostpath'],
  ['docker-desktop', 'hostpath'],
  ['rancher-desktop', 'local-path'],
]);

/**
 * The local distribution the directories of `file` are named for, nearest directory first:
 * `homelab-k3s/apps/db.yaml`, `kind/07-volume-pvc/deployment.yaml`. Repositories of k3s homelabs
 * and kind or minikube labs say so in their names and rarely in their YAML, and their class-less
 * claims then get a node-local default. The path is made absolute first, so the answer does not
 * depend on how it was given (`ballast lint .` inside `homelab-k3s/`, or `ballast lint homelab-k3s`).
 * Undefined for objects without a file.
 */
export function localDistributionOfPath(file: string | undefined): LocalDistribution | undefined {
  if (file === undefined) return undefined;
  const directories = path.dirname(path.resolve(file)).split(/[\\/]/).reverse();
  for (const directory of directories) {
    const words = directory.toLowerCase().split(/[-_.+ ]/);
    for (let i = 0; i < words.length; i++) {
      const word = words[i] ?? '';
      const pair = `${word}-${words[i + 1] ?? ''}`;
      for (const name of [pair, word]) {
        const defaultClass = DISTRIBUTIONS.get(name);
        if (defaultClass !== undefined) return { name, defaultClass };
      }
    }
  }
  return undefined;
}

/**
 * The local distribution of `file`: the one its directories are named for, else the one the nearest
 * README of the project names (a ProjectReadme in the file's directory or above it), when that README
 * names exactly one.
 */
export function localDistributionOf(index: ObjectIndex, file: string | undefined): LocalDistribution | undefined {
  const named = localDistributionOfPath(file);
  if (named || file === undefined) return named;
  const directory = path.dirname(path.resolve(file));
  // The deepest README directory that holds the file's directory.
  const nearest = index
    .derived(readmeDirectories)
    .filter((readme) => directory === readme.directory || directory.startsWith(readme.directory + path.sep))
    .reduce<ReadmeDirectory | undefined>(
      (deepest, readme) => (!deepest || readme.directory.length > deepest.directory.length ? readme : deepest),
      undefined,
    );
  const [name, ...others] = nearest?.names ?? [];
  const defaultClass = name === undefined ? undefined : DISTRIBUTIONS.get(name);
  return nearest && name !== undefined && others.length === 0 && defaultClass !== undefined
    ? { name, defaultClass, readme: nearest.readme }
    : undefined;
}

/** A ProjectReadme of the input: its file, its absolute directory and the distributions it names. */
interface ReadmeDirectory {
  readonly readme: string;
  readonly directory: string;
  readonly names: readonly string[];
}

/** Every ProjectReadme's directory, resolved once per index. */
function readmeDirectories(index: ObjectIndex): readonly ReadmeDirectory[] {
  return index.ofKind(PROJECT_README_KIND).flatMap((readme) => {
    const file = readme.source.file;
    return file === undefined
      ? []
      : [{ readme: file, directory: path.dirname(path.resolve(file)), names: readmeDistributions(readme.raw) }];
  });
}

import * as path from 'path';

/** A single-machine Kubernetes distribution whose bundled default StorageClass keeps volumes on one node. */
export interface LocalDistribution {
  /** As the path writes it: `k3s`, `kind`, `minikube`. */
  readonly name: string;
  /** The default class it installs, node-local (rancher.io/local-path, k8s.io/minikube-hostpath, docker.io/hostpath). */
  readonly defaultClass: string;
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

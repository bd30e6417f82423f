import { directoryOf } from './object-index';

/*
 * Where a cluster's own configuration in the input (a kind Cluster, an RKE cluster.yml, a cloud
 * autoscaler's) speaks for the manifests: a repository of several clusters or course chapters holds
 * configurations that say nothing of the manifests beside the others.
 */

/** True when `file` lies in `project` (a directory; `''` is the whole input) or below it. */
export function inProject(project: string, file: string): boolean {
  const directory = directoryOf(file);
  return (
    project === '' ||
    directory === project ||
    directory.startsWith(`${project}/`) ||
    directory.startsWith(`${project}\\`)
  );
}

/**
 * Words of a directory name that say it sets the cluster up, rather than holding a project's
 * manifests. Not `clusters`: a fleet repository's `clusters/dev/` kind cluster says nothing of the others.
 */
const CLUSTER_SETUP_WORDS: ReadonlySet<string> = new Set(['setup', 'cluster', 'kind', 'bootstrap']);

/**
 * The directory a cluster configuration file speaks for: the one above its file's, and above that
 * while the directory is named for setting a cluster up (`setup-cluster/kind/cluster-config.yaml`
 * speaks for the repository, as `setup/kind.yaml` does).
 */
export function projectOfSetup(file: string): string {
  let project = directoryOf(directoryOf(file));
  for (;;) {
    const name = project.slice(Math.max(project.lastIndexOf('/'), project.lastIndexOf('\\')) + 1);
    if (
      name === '' ||
      name === '.' ||
      !name
        .toLowerCase()
        .split(/[-_.]/)
        .some((word) => CLUSTER_SETUP_WORDS.has(word))
    )
      return project;
    project = directoryOf(project);
  }
}

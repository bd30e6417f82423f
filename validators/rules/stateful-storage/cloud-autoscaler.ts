import { asArray, asRecord, asString } from '../../json';
import { IndexedObject, ObjectIndex, directoryOf } from '../../object-index';
import { inProject } from '../../cluster-config-scope';

/**
 * The default StorageClass of each cloud's managed clusters, for a cloud a cluster-autoscaler names
 * with `--cloud-provider`: EKS `gp2` (an EBS disk), GKE `standard-rwo` (a persistent disk), AKS
 * `default` (an Azure disk). Each attaches to one node at a time.
 */
const CLOUD_DEFAULT_CLASSES: Readonly<Record<string, { readonly cloud: string; readonly className: string }>> = {
  aws: { cloud: 'AWS', className: 'gp2' },
  gce: { cloud: 'GCE', className: 'standard-rwo' },
  azure: { cloud: 'Azure', className: 'default' },
};

/** A cloud cluster the input runs a cluster-autoscaler for, and the default class of its claims. */
export interface CloudCluster {
  readonly cloud: string;
  readonly className: string;
  /** The autoscaler's workload, where it was found. */
  readonly autoscaler: IndexedObject;
}

/**
 * The cloud cluster whose cluster-autoscaler (`--cloud-provider=aws|gce|azure`) the input deploys
 * for `from`'s project: the directory above the autoscaler's own, and all below it, as a kind
 * configuration's. A repository that also configures a kind cluster for the same manifests runs
 * them on both, where a claim of no class gets two different defaults.
 */
export function cloudClusterFor(index: ObjectIndex, from: IndexedObject): CloudCluster | undefined {
  const file = from.source.file;
  return index
    .derived(cloudAutoscalers)
    .find(({ project }) => project === undefined || file === undefined || inProject(project, file))?.cluster;
}

function cloudAutoscalers(index: ObjectIndex): ReadonlyArray<{ project?: string; cluster: CloudCluster }> {
  const found: Array<{ project?: string; cluster: CloudCluster }> = [];
  for (const template of index.podTemplates()) {
    for (const container of asArray(template.spec.containers)) {
      const record = asRecord(container);
      if (!(asString(record?.image) ?? '').includes('cluster-autoscaler')) continue;
      const provider = cloudProviderOf([...asArray(record?.command), ...asArray(record?.args)]);
      const known = provider === undefined ? undefined : CLOUD_DEFAULT_CLASSES[provider];
      if (!known) continue;
      const file = template.owner.source.file;
      found.push({
        ...(file !== undefined ? { project: directoryOf(directoryOf(file)) } : {}),
        cluster: { ...known, autoscaler: template.owner },
      });
    }
  }
  return found;
}

/** The value of `--cloud-provider=X` (or `--cloud-provider X`) among a container's words. */
function cloudProviderOf(words: readonly unknown[]): string | undefined {
  for (const [i, word] of words.entries()) {
    if (typeof word !== 'string') continue;
    const joined = /--cloud-provider=(\S+)/.exec(word);
    if (joined) return joined[1];
    if (word.trim() === '--cloud-provider' && typeof words[i + 1] === 'string') return (words[i + 1] as string).trim();
  }
  return undefined;
}

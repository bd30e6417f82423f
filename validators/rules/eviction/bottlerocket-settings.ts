import { fieldPath } from '../../field-path';
import { JsonRecord, getRecord } from '../../json';
import { eksctlNodeGroups } from './eksctl-node-groups';
import { IndexedObject, ObjectIndex } from '../../object-index';
import { EvictionFieldNames, EvictionSettingsView, evictionFields } from './eviction-views';

/**
 * Bottlerocket's kubelet settings (`settings.kubernetes.eviction-hard` and its siblings), as eksctl
 * node groups write them (`bottlerocket.settings`). Bottlerocket renders its KubeletConfiguration
 * from these settings and writes `evictionHard` only when `eviction-hard` is set, with exactly the
 * signals named (bottlerocket-os/bottlerocket `packages/kubernetes-*\/kubelet-config`:
 * `{{#each settings.kubernetes.eviction-hard}}`): a partial map replaces the kubelet's defaults, as
 * in any KubeletConfiguration file. Karpenter copies its own kubelet evictionHard into the same
 * setting on Bottlerocket (karpenter-provider-aws `pkg/providers/amifamily/bootstrap/bottlerocket.go`).
 */
export const BOTTLEROCKET_FIELDS: EvictionFieldNames = {
  maps: {
    evictionHard: 'eviction-hard',
    evictionSoft: 'eviction-soft',
    evictionSoftGracePeriod: 'eviction-soft-grace-period',
  },
  maxPodGracePeriod: 'eviction-max-pod-grace-period',
};

/**
 * The kubelet's default hard thresholds that guard a Bottlerocket node: containerd's images and the
 * kubelet's directories share its data volume (`/var/lib/containerd` and `/var/lib/kubelet`), so the
 * imagefs signals follow the nodefs ones and losing them alone leaves no resource unguarded.
 */
export const BOTTLEROCKET_EVICTION_HARD: Readonly<Record<string, string>> = {
  'memory.available': '100Mi',
  'nodefs.available': '10%',
  'nodefs.inodesFree': '5%',
};

/** What a written `eviction-hard` (or an evictionHard Karpenter copies into it) replaces on Bottlerocket. */
export const BOTTLEROCKET_REPLACES = {
  what: "the kubelet's defaults (Bottlerocket writes only the signals named)",
  signals: BOTTLEROCKET_EVICTION_HARD,
};

/** Eviction settings in the `bottlerocket.settings.kubernetes` of eksctl ClusterConfig node groups. */
export function eksctlBottlerocketSettings(index: ObjectIndex): EvictionSettingsView[] {
  return eksctlNodeGroups(index).flatMap(({ object, nodeGroup, list, position, name }) => {
    const kubernetes = getRecord(nodeGroup, 'bottlerocket', 'settings', 'kubernetes');
    if (!kubernetes) return [];
    const prefix = fieldPath(list, position, 'bottlerocket', 'settings', 'kubernetes');
    return [bottlerocketView(object, kubernetes, prefix, `eksctl ${list} entry ${name}, Bottlerocket settings`)];
  });
}

function bottlerocketView(
  object: IndexedObject,
  kubernetes: JsonRecord,
  prefix: string,
  where: string,
): EvictionSettingsView {
  const at = (...segments: string[]) => [prefix, fieldPath(...segments)].join('.');
  return {
    object,
    fromFlags: false,
    where,
    ...evictionFields(kubernetes, at, BOTTLEROCKET_FIELDS),
    flags: [],
    withoutMergeDefaultsField: true,
    replaces: BOTTLEROCKET_REPLACES,
  };
}

import { JsonRecord, asArray, asRecord, asString } from '../../json';
import { IndexedObject, ObjectIndex } from '../../object-index';

/** One node group of an eksctl ClusterConfig, with where it is written. */
export interface EksctlNodeGroup {
  readonly object: IndexedObject;
  readonly nodeGroup: JsonRecord | undefined;
  /** `nodeGroups` or `managedNodeGroups`. */
  readonly list: string;
  readonly position: number;
  /** Its `name`, or its position when it has none. */
  readonly name: string;
}

/** Every node group (unmanaged and managed) of the eksctl.io ClusterConfigs of the input. */
export function eksctlNodeGroups(index: ObjectIndex): EksctlNodeGroup[] {
  const groups: EksctlNodeGroup[] = [];
  for (const object of index.ofKind('ClusterConfig')) {
    if (!(asString(object.raw.apiVersion) ?? '').startsWith('eksctl.io/')) continue;
    for (const list of ['nodeGroups', 'managedNodeGroups']) {
      asArray(object.raw[list]).forEach((entry, position) => {
        const nodeGroup = asRecord(entry);
        groups.push({ object, nodeGroup, list, position, name: asString(nodeGroup?.name) ?? String(position) });
      });
    }
  }
  return groups;
}

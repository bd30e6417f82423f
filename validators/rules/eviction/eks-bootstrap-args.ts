import { fieldPath } from '../../field-path';
import { asRecord, asString } from '../../json';
import { IndexedObject, ObjectIndex } from '../../object-index';
import { EvictionSettingsView, fromKubeletCommand } from './eviction-views';
import { AL2_EVICTION_HARD } from './karpenter-kubelet-settings';
import { wordsOf } from './kubelet-flags';
import { eksctlNodeGroups } from './eksctl-node-groups';

/**
 * Shell scripts that start an EKS AL2 node with the AMI's `/etc/eks/bootstrap.sh`, where users pass
 * kubelet flags through `--kubelet-extra-args '...'`:
 *  - an eksctl ClusterConfig's `overrideBootstrapCommand` (nodeGroups and managedNodeGroups);
 *  - Karpenter's `userData` (AWSNodeTemplate, EC2NodeClass), a script or a MIME part holding one.
 * bootstrap.sh writes the AMI's evictionHard (AL2_EVICTION_HARD) into the kubelet's configuration
 * first; an `--eviction-hard` flag then replaces that whole map, so a signal it leaves out keeps no
 * threshold at all (awslabs/amazon-eks-ami `templates/al2/runtime/bootstrap.sh`).
 */
export function eksBootstrapArgs(index: ObjectIndex): EvictionSettingsView[] {
  const views: EvictionSettingsView[] = [];
  for (const { object, nodeGroup, list, position, name } of eksctlNodeGroups(index)) {
    const script = asString(nodeGroup?.overrideBootstrapCommand);
    const path = fieldPath(list, position, 'overrideBootstrapCommand');
    if (script !== undefined) views.push(...viewsOf(object, script, path, `eksctl ${list} entry ${name}`));
  }
  for (const kind of ['AWSNodeTemplate', 'EC2NodeClass']) {
    for (const object of index.ofKind(kind)) {
      if (!(asString(object.raw.apiVersion) ?? '').startsWith('karpenter.k8s.aws/')) continue;
      const script = asString(asRecord(object.raw.spec)?.userData);
      if (script !== undefined)
        views.push(...viewsOf(object, script, 'spec.userData', `Karpenter ${kind} ${object.ref.name ?? ''} userData`));
    }
  }
  return views;
}

/** A bootstrap.sh call and its `--kubelet-extra-args` value, quoted (' or ") or one word. */
const KUBELET_EXTRA_ARGS =
  /\/etc\/eks\/bootstrap\.sh\b[^\n]*?--kubelet-extra-args(?:=|[ \t]+)(?:'([^']*)'|"([^"]*)"|([^\s'"]+))/g;

function viewsOf(object: IndexedObject, script: string, path: string, owner: string): EvictionSettingsView[] {
  const views: EvictionSettingsView[] = [];
  for (const match of script.matchAll(KUBELET_EXTRA_ARGS)) {
    const words = wordsOf(match[1] ?? match[2] ?? match[3] ?? '', path);
    const view = fromKubeletCommand(object, `${owner}, bootstrap.sh --kubelet-extra-args`, words);
    if (view) views.push({ ...view, replaces: { what: "the EKS AL2 AMI's evictionHard", signals: AL2_EVICTION_HARD } });
  }
  return views;
}

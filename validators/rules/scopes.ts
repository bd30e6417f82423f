import { WORKLOAD_KINDS as BUILT_IN_WORKLOAD_KINDS } from '../pod-templates';
import { KUBEADM_CONFIG_KINDS } from './eviction/kubeadm-kubelet-args';

/**
 * The kinds families of rules look at (`Rule.scope`), as `ballast explain` and the catalogue list
 * them: what a rule reads through the index, including the forms it normalizes (a kubeadm
 * configuration's kubelet flags, a systemd drop-in).
 */

/**
 * Every owner of a pod template the index knows: the built-in workload kinds and Argo Rollouts, and
 * custom resources whose operator creates pods from templates (pod-templates.ts).
 */
export const WORKLOAD_KINDS: readonly string[] = [
  ...BUILT_IN_WORKLOAD_KINDS,
  'custom resources with pod templates (Kubeflow jobs, Volcano Job, AscendJob, ...)',
];

/** Where kubelet eviction is configured: configuration files, kubeadm and Cluster API, kind, drop-ins, kubelet containers. */
export const EVICTION_SETTING_KINDS: readonly string[] = [
  'KubeletConfiguration',
  'ConfigMap (kube-system/kubelet-config)',
  ...KUBEADM_CONFIG_KINDS,
  'Cluster (kind.x-k8s.io kubeadmConfigPatches)',
  'SystemdDropIn (kubelet.service.d/*.conf)',
  'KubesprayVariables (inventory group_vars: kubelet_custom_flags, eviction_hard, kubelet_config_extra_args)',
  'K3sConfig (k3s and RKE2 config.yaml kubelet-arg)',
  'Simple (k3d.io options.k3s.extraArgs --kubelet-arg)',
  'Cluster and InstanceGroup (kops.k8s.io spec.kubelet)',
  'TalosMachineConfig (machine.kubelet.extraArgs and extraConfig)',
  'EC2NodeClass, NodePool and Provisioner (Karpenter kubelet settings, judged by AMI family)',
  'ClusterConfig (eksctl.io overrideBootstrapCommand) and AWSNodeTemplate or EC2NodeClass userData (EKS AL2 bootstrap.sh --kubelet-extra-args)',
  'ClusterConfig (eksctl.io node groups bottlerocket.settings.kubernetes eviction-hard, eviction-soft)',
  'RkeClusterConfig (RKE cluster.yml services.kubelet.extra_args)',
  ...WORKLOAD_KINDS,
];

/** Where leader election is configured: container flags, component configurations, kubeadm extra args. */
export const LEADER_ELECTION_SETTING_KINDS: readonly string[] = [
  ...WORKLOAD_KINDS,
  'KubeSchedulerConfiguration and other component *Configuration kinds',
  'KubeFedConfig (spec.leaderElect)',
  'ConfigMap (component configuration in a value)',
  'ClusterConfiguration',
  ...KUBEADM_CONFIG_KINDS.filter((kind) => kind !== 'InitConfiguration' && kind !== 'JoinConfiguration'),
];

export const RBAC_KINDS: readonly string[] = [
  'ServiceAccount',
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
];

/** What a workload's claim resolves through to its storage. */
export const STORAGE_KINDS: readonly string[] = [
  'PersistentVolumeClaim',
  'PersistentVolume',
  'StorageClass',
  'Application, HelmRelease and HelmChart (Argo CD, Flux, k3s) installing local-path-provisioner, Longhorn or rook-ceph-cluster',
];

import { fieldPath } from '../../field-path';
import { asArray, asRecord, asString, getRecord } from '../../json';
import { IndexedObject, ObjectIndex } from '../../object-index';
import { KUBESPRAY_KUBELET_VARIABLES, KUBESPRAY_VARIABLES_KIND } from '../../kubespray-variables';
import { K3S_CONFIG_KIND, KUBELET_ARG_KEY } from '../../k3s-config';
import { TALOS_MACHINE_CONFIG_KIND } from '../../talos-machine-config';
import { RKE_CLUSTER_CONFIG_KIND } from '../../rke-cluster-config';
import { EvictionSettingsView, fromKubeletCommand, fromKubeletConfiguration } from './eviction-views';
import { karpenterKubeletSettings } from './karpenter-kubelet-settings';
import { wordsOf } from './kubelet-flags';
import { eksBootstrapArgs } from './eks-bootstrap-args';
import { eksctlBottlerocketSettings } from './bottlerocket-settings';

/**
 * Kubelet eviction as cluster installers, distributions and node provisioners write it: kops, Talos,
 * k3s/RKE2, k3d, RKE, Kubespray, Karpenter, EKS bootstrap.sh arguments (eksctl, Karpenter userData) and Bottlerocket settings (eksctl), each turned into the views the eviction rules judge,
 * at the installer's own fields.
 */
export function installerKubeletSettings(index: ObjectIndex): EvictionSettingsView[] {
  return [
    ...kopsKubeletSettings(index),
    ...talosKubeletSettings(index),
    ...k3sKubeletArgs(index),
    ...rkeKubeletArgs(index),
    ...index.ofKind(KUBESPRAY_VARIABLES_KIND).flatMap(fromKubesprayVariables),
    ...karpenterKubeletSettings(index),
    ...eksBootstrapArgs(index),
    ...eksctlBottlerocketSettings(index),
  ];
}

/** kops's KubeletConfigSpec fields that kops passes to the kubelet as `--eviction-*` flags. */
const KOPS_EVICTION_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['evictionHard', 'eviction-hard'],
  ['evictionSoft', 'eviction-soft'],
  ['evictionSoftGracePeriod', 'eviction-soft-grace-period'],
  ['evictionMinimumReclaim', 'eviction-minimum-reclaim'],
  ['evictionMaxPodGracePeriod', 'eviction-max-pod-grace-period'],
];

/**
 * kops Cluster and InstanceGroup specs (kops.k8s.io): `spec.kubelet` (and a Cluster's
 * `spec.controlPlaneKubelet`, formerly `masterKubelet`) hold eviction settings as flag strings
 * (`evictionHard: memory.available<100Mi,...`) that kops passes to the kubelet as they are. They are
 * fields, not flags, to a kops user: no deprecation applies to them.
 */
function kopsKubeletSettings(index: ObjectIndex): EvictionSettingsView[] {
  const views: EvictionSettingsView[] = [];
  for (const kind of ['Cluster', 'InstanceGroup']) {
    for (const object of index.ofKind(kind)) {
      if (!(asString(object.raw.apiVersion) ?? '').startsWith('kops.k8s.io/')) continue;
      for (const field of ['kubelet', 'controlPlaneKubelet', 'masterKubelet']) {
        const kubelet = getRecord(object.raw, 'spec', field);
        if (!kubelet) continue;
        const words = KOPS_EVICTION_FIELDS.flatMap(([name, flag]) => {
          const value = kubelet[name];
          return typeof value === 'string' || typeof value === 'number'
            ? [{ text: `--${flag}=${String(value)}`, path: fieldPath('spec', field, name) }]
            : [];
        });
        const view = fromKubeletCommand(object, `kops ${kind} ${object.ref.name ?? ''} spec.${field}`, words);
        if (view) views.push({ ...view, flags: [] });
      }
    }
  }
  return views;
}

/** Talos machine configurations: `machine.kubelet.extraArgs` (kubelet flags) and `extraConfig` (configuration fields). */
function talosKubeletSettings(index: ObjectIndex): EvictionSettingsView[] {
  const views: EvictionSettingsView[] = [];
  for (const config of index.ofKind(TALOS_MACHINE_CONFIG_KIND)) {
    const kubelet = getRecord(config.raw, 'machine', 'kubelet');
    const words = Object.entries(asRecord(kubelet?.extraArgs) ?? {}).flatMap(([name, value]) =>
      typeof value === 'string' || typeof value === 'number'
        ? [{ text: `--${name}=${String(value)}`, path: fieldPath('machine', 'kubelet', 'extraArgs', name) }]
        : [],
    );
    const view = fromKubeletCommand(config, 'Talos machine.kubelet.extraArgs', words);
    if (view) views.push(view);
    const extraConfig = asRecord(kubelet?.extraConfig);
    if (extraConfig) views.push(fromKubeletConfiguration(config, extraConfig, 'machine.kubelet.extraConfig', false));
  }
  return views;
}

/**
 * The kubelet flags k3s and RKE2 pass on: `kubelet-arg` entries (`eviction-hard=...`) of their
 * configuration files, and `--kubelet-arg=...` server and agent arguments of a k3d cluster
 * configuration (k3d.io `Simple`, `options.k3s.extraArgs[].arg`).
 */
function k3sKubeletArgs(index: ObjectIndex): EvictionSettingsView[] {
  const views: EvictionSettingsView[] = [];
  for (const config of index.ofKind(K3S_CONFIG_KIND)) {
    const words = stringEntries(config.raw, KUBELET_ARG_KEY).map(({ text, path }) => ({
      text: `--${text.replace(/^--/, '')}`,
      path,
    }));
    const view = fromKubeletCommand(config, `k3s ${KUBELET_ARG_KEY}`, words);
    if (view) views.push(view);
  }
  for (const cluster of index.ofKind('Simple')) {
    if (!(asString(cluster.raw.apiVersion) ?? '').startsWith('k3d.io/')) continue;
    const words = asArray(getRecord(cluster.raw, 'options', 'k3s')?.extraArgs).flatMap((entry, i) => {
      const arg = asString(asRecord(entry)?.arg) ?? '';
      const kubelet = /^--kubelet-arg[= ](.*)$/s.exec(arg.trim());
      return kubelet
        ? [{ text: `--${(kubelet[1] ?? '').replace(/^--/, '')}`, path: `options.k3s.extraArgs[${i}].arg` }]
        : [];
    });
    const view = fromKubeletCommand(cluster, `k3d Simple ${cluster.ref.name ?? ''} options.k3s.extraArgs`, words);
    if (view) views.push(view);
  }
  return views;
}

/** The kubelet flags of an RKE cluster.yml: `services.kubelet.extra_args`, a map of flag names to values. */
function rkeKubeletArgs(index: ObjectIndex): EvictionSettingsView[] {
  const views: EvictionSettingsView[] = [];
  for (const config of index.ofKind(RKE_CLUSTER_CONFIG_KIND)) {
    const words = Object.entries(asRecord(getRecord(config.raw, 'services', 'kubelet')?.extra_args) ?? {}).flatMap(
      ([name, value]) =>
        typeof value === 'string' || typeof value === 'number'
          ? [{ text: `--${name}=${String(value)}`, path: fieldPath('services', 'kubelet', 'extra_args', name) }]
          : [],
    );
    const view = fromKubeletCommand(config, 'RKE services.kubelet.extra_args', words);
    if (view) views.push(view);
  }
  return views;
}

/**
 * What a Kubespray inventory sets for the kubelet: flags (`kubelet_custom_flags`, a list or one
 * string, joined onto its command line), `eviction_hard` (rendered as the configuration's
 * evictionHard) and `kubelet_config_extra_args` (rendered as configuration fields).
 */
function fromKubesprayVariables(variables: IndexedObject): EvictionSettingsView[] {
  const views: EvictionSettingsView[] = [];
  for (const name of KUBESPRAY_KUBELET_VARIABLES.flags) {
    const words = stringEntries(variables.raw, name).flatMap(({ text, path }) => wordsOf(text, path));
    const view = fromKubeletCommand(variables, `Kubespray ${name}`, words);
    if (view) views.push(view);
  }
  for (const name of KUBESPRAY_KUBELET_VARIABLES.evictionHard) {
    const map = asRecord(variables.raw[name]);
    if (!map) continue;
    views.push({
      object: variables,
      fromFlags: false,
      where: `Kubespray ${name}`,
      evictionHard: {
        path: name,
        entries: Object.entries(map).map(([signal, value]) => ({
          signal,
          value: typeof value === 'string' || typeof value === 'number' ? String(value) : '',
          path: fieldPath(name, signal),
        })),
      },
      flags: [],
    });
  }
  for (const name of KUBESPRAY_KUBELET_VARIABLES.configuration) {
    const configuration = asRecord(variables.raw[name]);
    if (configuration) views.push(fromKubeletConfiguration(variables, configuration, name, false));
  }
  return views;
}

/**
 * The strings an installer setting holds, each with its path: a list of strings (`key[i]`) or one
 * string (`key`), as k3s's `kubelet-arg` and Kubespray's flag variables both may be written.
 */
function stringEntries(object: Record<string, unknown>, key: string): Array<{ text: string; path: string }> {
  const value = object[key];
  const entries = Array.isArray(value)
    ? value.map((text: unknown, i) => ({ text, path: fieldPath(key, i) }))
    : [{ text: value, path: fieldPath(key) }];
  return entries.filter((entry): entry is { text: string; path: string } => typeof entry.text === 'string');
}

import { JsonRecord, getRecord, isRecord } from './json';
import { isKindlessDocument } from './list-items';

/**
 * The kind ballast gives a Talos machine configuration (or a patch of one): not a Kubernetes object,
 * but what Talos runs each node's kubelet with (`machine.kubelet.extraArgs` are its flags,
 * `machine.kubelet.extraConfig` is merged into its KubeletConfiguration).
 */
export const TALOS_MACHINE_CONFIG_KIND = 'TalosMachineConfig';

/** The top-level keys of a Talos machine configuration (v1alpha1), which a patch writes some of. */
const TALOS_TOP_LEVEL_KEYS = new Set(['version', 'debug', 'persist', 'machine', 'cluster']);

/**
 * Sections of `machine` in Talos' v1alpha1 machine configuration (talos.dev reference) beside
 * `kubelet`: with one of them and nothing but Talos' own top-level keys, a document is a machine
 * configuration or a patch of one, whatever it sets.
 */
const TALOS_MACHINE_SECTIONS = [
  'sysctls',
  'install',
  'network',
  'kernel',
  'files',
  'features',
  'nodeLabels',
  'nodeTaints',
  'certSANs',
  'registries',
  'systemDiskEncryption',
  'udev',
  'sysfs',
];

/**
 * A YAML document that configures `machine` as Talos machine configurations and their patches do
 * (`machine.kubelet`, `machine.sysctls`, ...), as an object of kind TalosMachineConfig with the
 * document's own keys (findings keep their paths); undefined for any other document.
 */
export function talosMachineConfig(document: unknown): JsonRecord | undefined {
  if (!isKindlessDocument(document)) return undefined;
  const machine = getRecord(document, 'machine');
  if (!machine) return undefined;
  const talosShaped =
    getRecord(machine, 'kubelet') !== undefined ||
    (Object.keys(document).every((key) => TALOS_TOP_LEVEL_KEYS.has(key)) &&
      TALOS_MACHINE_SECTIONS.some((section) => section in machine));
  return talosShaped ? { kind: TALOS_MACHINE_CONFIG_KIND, ...document } : undefined;
}

/**
 * The kind ballast gives a talhelper configuration (`talconfig.yaml`: `talosVersion`, `nodes`),
 * from which talhelper generates each node's Talos machine configuration.
 */
export const TALHELPER_CONFIG_KIND = 'TalhelperConfig';

/** A talhelper `talconfig.yaml` document as an object of kind TalhelperConfig; undefined for any other document. */
export function talhelperConfig(document: unknown): JsonRecord | undefined {
  if (!isKindlessDocument(document)) return undefined;
  return typeof document.talosVersion === 'string' && Array.isArray(document.nodes)
    ? { kind: TALHELPER_CONFIG_KIND, ...document }
    : undefined;
}

/**
 * The kind ballast gives a Talos Image Factory schematic (`customization.systemExtensions`), the
 * file a repository builds its Talos node images from: its nodes run Talos.
 */
export const TALOS_IMAGE_SCHEMATIC_KIND = 'TalosImageSchematic';

/** An Image Factory schematic as an object of kind TalosImageSchematic; undefined for any other document. */
export function talosImageSchematic(document: unknown): JsonRecord | undefined {
  if (!isKindlessDocument(document)) return undefined;
  return getRecord(document, 'customization', 'systemExtensions')
    ? { kind: TALOS_IMAGE_SCHEMATIC_KIND, ...document }
    : undefined;
}

/**
 * The kind ballast gives an Omni cluster template's Cluster document (`kind: Cluster` without an
 * apiVersion, with `talos.version` and `kubernetes.version`: what `omnictl cluster template sync`
 * reads): every machine Omni manages runs Talos.
 */
export const OMNI_CLUSTER_TEMPLATE_KIND = 'OmniClusterTemplate';

/** An Omni cluster template's Cluster document as an object of kind OmniClusterTemplate; undefined for any other document. */
export function omniClusterTemplate(document: unknown): JsonRecord | undefined {
  if (!isRecord(document) || document.kind !== 'Cluster' || 'apiVersion' in document) return undefined;
  return typeof getRecord(document, 'talos')?.version === 'string' &&
    typeof getRecord(document, 'kubernetes')?.version === 'string'
    ? { ...document, kind: OMNI_CLUSTER_TEMPLATE_KIND }
    : undefined;
}

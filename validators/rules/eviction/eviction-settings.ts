/**
 * Where eviction settings live and how rules see them: one view per KubeletConfiguration object,
 * per container that runs the kubelet (static pods, pod templates), per kubelet unit drop-in, and
 * per kubeadm / Cluster API `nodeRegistration.kubeletExtraArgs`, and per file Cluster API writes
 * onto nodes (`files:`).
 * Every value keeps the field path it was read from, so the same rule reports on a config field
 * (`evictionHard[nodefs.available]`), a container argument (`spec.containers[0].args[2]`) or a
 * drop-in line (`service.execStart[1]`).
 */
import { fieldPath } from '../../field-path';
import { embeddedYamlDocuments } from '../../embedded-yaml';
import { JsonRecord, asArray, asRecord, asString, getRecord } from '../../json';
import { IndexedObject, ObjectIndex } from '../../object-index';
import { commandLineMentions } from '../../pod-templates';
import { isSystemdUnitText, parseSystemdDropIn, splitWords } from '../../systemd-drop-in';
import { KubeVersion } from '../../kube-version';
import { MERGE_DEFAULT_EVICTION_SETTINGS_SINCE, defaultEvictionHard } from './eviction-signals';
import { CommandWord, EvictionMapEntry, evictionFlags, flagMapEntries, isKubeletBinary } from './kubelet-flags';
import { kubeadmKubeletArgs } from './kubeadm-kubelet-args';
import { kindConfigPatches } from './kind-config-patches';
import { KUBESPRAY_KUBELET_VARIABLES, KUBESPRAY_VARIABLES_KIND } from '../../kubespray-variables';
import { K3S_CONFIG_KIND, KUBELET_ARG_KEY } from '../../k3s-config';
import { TALOS_MACHINE_CONFIG_KIND } from '../../talos-machine-config';
import { NodeFile, kubeadmConfigFiles } from './kubeadm-config-files';

export interface EvictionMap {
  /** The field or flag that holds the map. */
  readonly path: string;
  readonly entries: readonly EvictionMapEntry[];
}

export interface EvictionSettingsView {
  readonly object: IndexedObject;
  /** Settings written as `--eviction-*` flags rather than as KubeletConfiguration fields. */
  readonly fromFlags: boolean;
  /** How a message names the place: `KubeletConfiguration node-a`, `drop-in 10-eviction.conf`. */
  readonly where: string;
  readonly evictionHard?: EvictionMap;
  readonly evictionSoft?: EvictionMap;
  readonly evictionSoftGracePeriod?: EvictionMap;
  readonly evictionMinimumReclaim?: EvictionMap;
  readonly evictionMaxPodGracePeriod?: { readonly value: unknown; readonly path: string };
  /** `mergeDefaultEvictionSettings`, when set to a boolean. */
  readonly mergeDefaults?: { readonly value: boolean; readonly path: string };
  /** Every deprecated `--eviction-*` flag, with the path of its value. */
  readonly flags: ReadonlyArray<{ readonly name: string; readonly path: string }>;
  /**
   * A KubeletConfiguration read from a kubelet `--config-dir` drop-in (a `.conf` file): the kubelet
   * merges it onto its main configuration as loaded, defaults included, so a partial evictionHard
   * there keeps the other default signals (unless the main file itself set a partial one).
   */
  readonly configDirDropIn?: boolean;
}

const MAP_FIELDS = ['evictionHard', 'evictionSoft', 'evictionSoftGracePeriod', 'evictionMinimumReclaim'] as const;
type MapField = (typeof MAP_FIELDS)[number];

/** Every place in the set that configures kubelet eviction. Computed once per index. */
export function evictionSettingsViews(index: ObjectIndex): readonly EvictionSettingsView[] {
  return index.derived(collectEvictionSettingsViews);
}

function collectEvictionSettingsViews(index: ObjectIndex): readonly EvictionSettingsView[] {
  const views: EvictionSettingsView[] = [];
  for (const config of index.ofKind('KubeletConfiguration'))
    views.push(fromKubeletConfiguration(config, config.raw, ''));
  // kubeadm keeps the cluster's KubeletConfiguration in the kube-system/kubelet-config ConfigMap.
  for (const configMap of index.ofKind('ConfigMap')) {
    for (const [key, text] of Object.entries(asRecord(configMap.raw.data) ?? {})) {
      for (const document of embeddedKubeletConfigurations(text))
        views.push(fromKubeletConfiguration(configMap, document, fieldPath('data', key)));
    }
  }
  // kind merges `kubeadmConfigPatches` (cluster-wide and per node) into the configuration it generates.
  for (const { cluster, path, text } of kindConfigPatches(index)) {
    for (const document of embeddedKubeletConfigurations(text))
      views.push(fromKubeletConfiguration(cluster, document, fieldPath(...path)));
  }
  for (const template of index.podTemplates()) {
    for (const key of ['initContainers', 'containers']) {
      asArray(template.spec[key]).forEach((container, position) => {
        const record = asRecord(container);
        // Only a container that runs the kubelet configures eviction, and the binary's name is a
        // substring of its command or args: most containers are passed over unsplit.
        if (!record || !commandLineMentions(record, 'kubelet')) return;
        const base = `${template.path}.${key}[${position}]`;
        const words = [
          ...asArray(record.command).map((text, i) => ({ text, path: `${base}.command[${i}]` })),
          ...asArray(record.args).map((text, i) => ({ text, path: `${base}.args[${i}]` })),
        ].filter((word): word is CommandWord => typeof word.text === 'string');
        const view = fromKubeletCommand(
          template.owner,
          `container ${asString(record.name) ?? position}`,
          kubeletArguments(words),
        );
        if (view) views.push(view);
      });
    }
  }
  for (const dropIn of index.ofKind('SystemdDropIn')) {
    const view = fromSystemdDropIn(dropIn);
    if (view) views.push(view);
  }
  for (const variables of index.ofKind(KUBESPRAY_VARIABLES_KIND)) views.push(...fromKubesprayVariables(variables));
  for (const view of k3sKubeletArgs(index)) views.push(view);
  views.push(...kopsKubeletSettings(index), ...talosKubeletSettings(index));
  // Cluster API writes kubeadm patches, kubelet configuration files and unit drop-ins onto nodes.
  for (const file of kubeadmConfigFiles(index)) views.push(...fromNodeFile(file));
  // kubeadm and Cluster API: the kubelet's flags as `nodeRegistration.kubeletExtraArgs`.
  for (const args of kubeadmKubeletArgs(index)) {
    const view = fromKubeletCommand(args.object, args.where, args.words);
    if (view) views.push(view);
  }
  return views;
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
    const value = config.raw[KUBELET_ARG_KEY];
    const entries: Array<{ text: unknown; path: string }> = Array.isArray(value)
      ? value.map((text, i) => ({ text, path: fieldPath(KUBELET_ARG_KEY, i) }))
      : [{ text: value, path: fieldPath(KUBELET_ARG_KEY) }];
    const words = entries.flatMap(({ text, path }) =>
      typeof text === 'string' ? [{ text: `--${text.replace(/^--/, '')}`, path }] : [],
    );
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

/**
 * What a Kubespray inventory sets for the kubelet: flags (`kubelet_custom_flags`, a list or one
 * string, joined onto its command line), `eviction_hard` (rendered as the configuration's
 * evictionHard) and `kubelet_config_extra_args` (rendered as configuration fields).
 */
function fromKubesprayVariables(variables: IndexedObject): EvictionSettingsView[] {
  const views: EvictionSettingsView[] = [];
  for (const name of KUBESPRAY_KUBELET_VARIABLES.flags) {
    const value = variables.raw[name];
    const items: Array<{ text: unknown; path: string }> = Array.isArray(value)
      ? value.map((text, i) => ({ text, path: fieldPath(name, i) }))
      : [{ text: value, path: name }];
    const words = items.flatMap(({ text, path }) =>
      typeof text === 'string'
        ? text
            .split(/\s+/)
            .filter((word) => word !== '')
            .map((word) => ({ text: word, path }))
        : [],
    );
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
 * The KubeletConfiguration documents of a text held inside another object (a ConfigMap value, a
 * kind patch); the text is parsed only when it names the kind.
 */
function embeddedKubeletConfigurations(text: unknown): JsonRecord[] {
  if (typeof text !== 'string' || !text.includes('KubeletConfiguration')) return [];
  return embeddedYamlDocuments(text).filter((document) => document.kind === 'KubeletConfiguration');
}

/**
 * A KubeletConfiguration object, or one held at `prefix` inside `object` (a ConfigMap value, a file
 * Cluster API writes); a `.conf` file, or `configDirDropIn`, is a kubelet `--config-dir` drop-in.
 */
function fromKubeletConfiguration(
  object: IndexedObject,
  config: JsonRecord,
  prefix: string,
  configDirDropIn = prefix === '' && /\.conf$/i.test(object.source.file ?? ''),
): EvictionSettingsView {
  const at = (...segments: string[]) => [prefix, fieldPath(...segments)].filter((part) => part !== '').join('.');
  const maps: Partial<Record<MapField, EvictionMap>> = {};
  for (const field of MAP_FIELDS) {
    const map = asRecord(config[field]);
    if (!map) continue;
    maps[field] = {
      path: at(field),
      entries: Object.entries(map).map(([signal, value]) => ({
        signal,
        value: typeof value === 'string' || typeof value === 'number' ? String(value) : '',
        path: at(field, signal),
      })),
    };
  }
  const maxGrace = config.evictionMaxPodGracePeriod;
  const merge = config.mergeDefaultEvictionSettings;
  const where =
    prefix === ''
      ? `KubeletConfiguration ${object.ref.name ?? object.source.file ?? ''}`
      : `KubeletConfiguration in ${prefix} of ${object.ref.kind ?? ''} ${object.ref.name ?? ''}`;
  return {
    object,
    fromFlags: false,
    where: where.trim(),
    ...maps,
    ...(maxGrace !== undefined && maxGrace !== null
      ? { evictionMaxPodGracePeriod: { value: maxGrace, path: at('evictionMaxPodGracePeriod') } }
      : {}),
    ...(typeof merge === 'boolean'
      ? { mergeDefaults: { value: merge, path: at('mergeDefaultEvictionSettings') } }
      : {}),
    flags: [],
    ...(configDirDropIn ? { configDirDropIn: true } : {}),
  };
}

/**
 * The words after the kubelet binary. A word with spaces (`sh -c "exec kubelet --eviction-hard=..."`)
 * is split, its pieces keeping the word's path.
 */
function kubeletArguments(words: readonly CommandWord[]): CommandWord[] {
  const flat = words.flatMap((word) =>
    /\s/.test(word.text) ? splitWords(word.text).words.map((text) => ({ text, path: word.path })) : [word],
  );
  const start = flat.findIndex((word) => isKubeletBinary(word.text));
  return start < 0 ? [] : flat.slice(start + 1);
}

function fromKubeletCommand(
  object: IndexedObject,
  where: string,
  words: readonly CommandWord[],
): EvictionSettingsView | undefined {
  const flags = evictionFlags(words);
  if (flags.length === 0) return undefined;
  const maps: Partial<Record<MapField, { path: string; entries: EvictionMapEntry[] }>> = {};
  let maxGrace: { value: unknown; path: string } | undefined;
  for (const flag of flags) {
    if (flag.name === 'eviction-max-pod-grace-period') {
      maxGrace = { value: flag.value, path: flag.path };
      continue;
    }
    const field = (
      {
        'eviction-hard': 'evictionHard',
        'eviction-soft': 'evictionSoft',
        'eviction-soft-grace-period': 'evictionSoftGracePeriod',
        'eviction-minimum-reclaim': 'evictionMinimumReclaim',
      } as Record<string, MapField | undefined>
    )[flag.name];
    if (!field) continue;
    // Repeated map flags add to the map: only the first use clears the kubelet's defaults.
    const existing = maps[field];
    if (existing) existing.entries.push(...flagMapEntries(flag));
    else maps[field] = { path: flag.path, entries: flagMapEntries(flag) };
  }
  return {
    object,
    fromFlags: true,
    where,
    ...maps,
    ...(maxGrace ? { evictionMaxPodGracePeriod: maxGrace } : {}),
    flags: flags.map((flag) => ({ name: flag.name, path: flag.path })),
  };
}

/** True for a drop-in of kubelet.service, or of an unnamed unit that visibly runs the kubelet. */
export function isKubeletDropIn(object: IndexedObject): boolean {
  return isKubeletDropInObject(object.raw);
}

function isKubeletDropInObject(raw: JsonRecord): boolean {
  const unit = asString(raw.unit);
  if (unit !== undefined) return unit === 'kubelet.service' || unit === 'kubelet';
  const service = getRecord(raw, 'service');
  const runsKubelet = asArray(service?.execStart).some((entry) =>
    asArray(asRecord(entry)?.argv).some((word) => typeof word === 'string' && isKubeletBinary(word)),
  );
  const kubeletVariables = asArray(service?.environment).some((entry) =>
    /^KUBELET_/.test(asString(asRecord(entry)?.name) ?? ''),
  );
  return runsKubelet || kubeletVariables;
}

function fromSystemdDropIn(object: IndexedObject): EvictionSettingsView | undefined {
  if (!isKubeletDropIn(object)) return undefined;
  const name = asString(getRecord(object.raw, 'metadata')?.name) ?? 'drop-in';
  return fromKubeletCommand(object, `drop-in ${name}`, dropInKubeletWords(object.raw, ''));
}

/**
 * The kubelet's words in a drop-in: its `Environment=` values and the arguments after the kubelet
 * binary in `ExecStart=`, each with the path of its line (under `prefix`, where the drop-in is
 * held as text inside another object).
 */
function dropInKubeletWords(raw: JsonRecord, prefix: string): CommandWord[] {
  const at = (path: string) => (prefix === '' ? path : `${prefix}.${path}`);
  const service = getRecord(raw, 'service');
  const words: CommandWord[] = [];
  asArray(service?.environment).forEach((entry, i) => {
    const value = asString(asRecord(entry)?.value);
    if (value !== undefined)
      words.push(...splitWords(value).words.map((text) => ({ text, path: at(`service.environment[${i}]`) })));
  });
  asArray(service?.execStart).forEach((entry, i) => {
    const argv = asArray(asRecord(entry)?.argv).filter((word): word is string => typeof word === 'string');
    const start = argv.findIndex(isKubeletBinary);
    if (start >= 0) words.push(...argv.slice(start + 1).map((text) => ({ text, path: at(`service.execStart[${i}]`) })));
  });
  return words;
}

/**
 * The eviction settings in the files a Cluster API bootstrap object writes onto its nodes: a
 * KubeletConfiguration (a kubeadm patch `/etc/kubernetes/patches/kubeletconfiguration*`, which kubeadm
 * applies to the configuration it writes, or a configuration file; one ending in `.conf` is a
 * `--config-dir` drop-in) or a kubelet unit drop-in.
 */
function fromNodeFile(file: NodeFile): EvictionSettingsView[] {
  const owner = `${file.object.ref.kind ?? ''} ${file.object.ref.name ?? ''}`;
  if (isSystemdUnitText(file.content)) {
    const raw = parseSystemdDropIn(file.content, file.nodePath) as unknown as JsonRecord;
    if (!isKubeletDropInObject(raw)) return [];
    const view = fromKubeletCommand(
      file.object,
      `drop-in ${file.nodePath} of ${owner}`,
      dropInKubeletWords(raw, file.path),
    );
    return view ? [view] : [];
  }
  return embeddedKubeletConfigurations(file.content).map((document) =>
    fromKubeletConfiguration(file.object, document, file.path, /\.conf$/i.test(file.nodePath)),
  );
}

/** The values of a map view by signal (the last one written wins, as in the kubelet). */
export function entriesBySignal(map: EvictionMap | undefined): Map<string, EvictionMapEntry> {
  const result = new Map<string, EvictionMapEntry>();
  for (const entry of map?.entries ?? []) result.set(entry.signal, entry);
  return result;
}

/**
 * The hard thresholds the kubelet will actually use, by signal: the written ones, plus the
 * version's defaults when nothing is written or when defaults are merged (1.33+).
 */
export function effectiveHardThresholds(view: EvictionSettingsView, version: KubeVersion): Map<string, string> {
  const result = new Map<string, string>();
  const mergesDefaults = !view.evictionHard || mergesDefaultSignals(view, version);
  if (mergesDefaults)
    for (const [signal, value] of Object.entries(defaultEvictionHard(version))) result.set(signal, value);
  for (const entry of view.evictionHard?.entries ?? []) result.set(entry.signal, entry.value);
  return result;
}

/**
 * True when the kubelet fills in unnamed default signals: `mergeDefaultEvictionSettings: true`
 * (from 1.33), or a `--config-dir` drop-in, which is merged onto the defaulted main configuration.
 */
export function mergesDefaultSignals(view: EvictionSettingsView, version: KubeVersion): boolean {
  if (view.configDirDropIn && version.atLeast(CONFIG_DIR_SINCE)) return true;
  return view.mergeDefaults?.value === true && version.atLeast(MERGE_DEFAULT_EVICTION_SETTINGS_SINCE);
}

/** Kubelet `--config-dir` drop-ins exist from 1.28 (alpha; beta 1.30, GA 1.35). */
const CONFIG_DIR_SINCE = '1.28';

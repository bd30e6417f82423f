import { fieldPath } from '../../field-path';
import { JsonRecord, asRecord } from '../../json';
import { IndexedObject } from '../../object-index';
import { KubeVersion } from '../../kube-version';
import { MERGE_DEFAULT_EVICTION_SETTINGS_SINCE, defaultEvictionHard } from './eviction-signals';
import { CommandWord, EvictionMapEntry, evictionFlags, flagMapEntries } from './kubelet-flags';

/**
 * One place that configures kubelet eviction, in one shape whatever form it was written in
 * (a KubeletConfiguration, flags, a kubeadm or installer setting): what the eviction rules judge.
 */

export interface EvictionMap {
  /** The field or flag that holds the map. */
  readonly path: string;
  readonly entries: readonly EvictionMapEntry[];
}

/** An evictionHard map another setting is written onto, and what it is ("kind's generated evictionHard"). */
export interface NamedEvictionMap {
  readonly what: string;
  readonly signals: Readonly<Record<string, string>>;
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
  /**
   * The settings reach the kubelet in a way ballast cannot follow (a Karpenter Bottlerocket or
   * Custom AMI): their values are checked, but no default signal is said to be dropped.
   */
  readonly deliveryUnknown?: boolean;
  /** The place has no `mergeDefaultEvictionSettings` to set (Karpenter's kubelet settings): fixes do not offer it. */
  readonly withoutMergeDefaultsField?: boolean;
  /**
   * What a written evictionHard replaces when it is not the kubelet's defaults: the map an AMI's
   * bootstrap writes first (EKS AL2: memory.available, nodefs.available, nodefs.inodesFree).
   */
  readonly replaces?: NamedEvictionMap;
  /**
   * The map a written evictionHard is merged onto key by key, not replacing it: the one kind
   * generates, which a kind `kubeadmConfigPatches` entry patches. The written map drops nothing;
   * what the base lacks is the platform's own choice.
   */
  readonly mergedOnto?: NamedEvictionMap;
}

const MAP_FIELDS = ['evictionHard', 'evictionSoft', 'evictionSoftGracePeriod', 'evictionMinimumReclaim'] as const;
export type MapField = (typeof MAP_FIELDS)[number];

/**
 * A KubeletConfiguration object, or one held at `prefix` inside `object` (a ConfigMap value, a file
 * Cluster API writes); a `.conf` file, or `configDirDropIn`, is a kubelet `--config-dir` drop-in.
 */
export function fromKubeletConfiguration(
  object: IndexedObject,
  config: JsonRecord,
  prefix: string,
  configDirDropIn = prefix === '' && /\.conf$/i.test(object.source.file ?? ''),
): EvictionSettingsView {
  const at = (...segments: string[]) => [prefix, fieldPath(...segments)].filter((part) => part !== '').join('.');
  const merge = config.mergeDefaultEvictionSettings;
  const where =
    prefix === ''
      ? `KubeletConfiguration ${object.ref.name ?? object.source.file ?? ''}`
      : `KubeletConfiguration in ${prefix} of ${object.ref.kind ?? ''} ${object.ref.name ?? ''}`;
  return {
    object,
    fromFlags: false,
    where: where.trim(),
    ...evictionFields(config, at, KUBELET_CONFIGURATION_FIELDS),
    ...(typeof merge === 'boolean'
      ? { mergeDefaults: { value: merge, path: at('mergeDefaultEvictionSettings') } }
      : {}),
    flags: [],
    ...(configDirDropIn ? { configDirDropIn: true } : {}),
  };
}

/** What each eviction setting is called in a settings map: KubeletConfiguration's names, or an OS's own. */
export interface EvictionFieldNames {
  /** A setting the place does not offer is left out (Bottlerocket has no minimum reclaim). */
  readonly maps: Readonly<Partial<Record<MapField, string>>>;
  readonly maxPodGracePeriod: string;
}

const KUBELET_CONFIGURATION_FIELDS: EvictionFieldNames = {
  maps: {
    evictionHard: 'evictionHard',
    evictionSoft: 'evictionSoft',
    evictionSoftGracePeriod: 'evictionSoftGracePeriod',
    evictionMinimumReclaim: 'evictionMinimumReclaim',
  },
  maxPodGracePeriod: 'evictionMaxPodGracePeriod',
};

/**
 * The eviction maps and grace period a settings map holds under `names`, each with the path `at`
 * gives its field (`at('evictionHard', 'memory.available')`).
 */
export function evictionFields(
  settings: JsonRecord,
  at: (...segments: string[]) => string,
  names: EvictionFieldNames,
): Pick<EvictionSettingsView, MapField | 'evictionMaxPodGracePeriod'> {
  const fields: { -readonly [F in MapField]?: EvictionMap } = {};
  for (const field of MAP_FIELDS) {
    const name = names.maps[field];
    const map = name === undefined ? undefined : asRecord(settings[name]);
    if (name === undefined || !map) continue;
    fields[field] = {
      path: at(name),
      entries: Object.entries(map).map(([signal, value]) => ({
        signal,
        value: typeof value === 'string' || typeof value === 'number' ? String(value) : '',
        path: at(name, signal),
      })),
    };
  }
  const maxGrace = settings[names.maxPodGracePeriod];
  return {
    ...fields,
    ...(maxGrace !== undefined && maxGrace !== null
      ? { evictionMaxPodGracePeriod: { value: maxGrace, path: at(names.maxPodGracePeriod) } }
      : {}),
  };
}

/** The eviction settings among a kubelet's command-line words (flags), or undefined when it sets none. */
export function fromKubeletCommand(
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
  const base = view.mergedOnto?.signals ?? (mergesDefaults ? defaultEvictionHard(version) : {});
  for (const [signal, value] of Object.entries(base)) result.set(signal, value);
  for (const entry of view.evictionHard?.entries ?? []) result.set(entry.signal, entry.value);
  return result;
}

/**
 * True when the kubelet fills in unnamed default signals: `mergeDefaultEvictionSettings: true`
 * (from 1.33), or a `--config-dir` drop-in, which is merged onto the defaulted main configuration.
 * Settings whose way to the kubelet is unknown are taken to keep the defaults: nothing is claimed.
 */
export function mergesDefaultSignals(view: EvictionSettingsView, version: KubeVersion): boolean {
  if (view.deliveryUnknown) return true;
  if (view.configDirDropIn && version.atLeast(CONFIG_DIR_SINCE)) return true;
  return view.mergeDefaults?.value === true && version.atLeast(MERGE_DEFAULT_EVICTION_SETTINGS_SINCE);
}

/** Kubelet `--config-dir` drop-ins exist from 1.28 (alpha; beta 1.30, GA 1.35). */
const CONFIG_DIR_SINCE = '1.28';

/**
 * The kubelet eviction settings as plain data: what every renderer in templates/ takes. The
 * typed KubeletEvictionPolicy (constructs/) produces it complete and checked; renderers only
 * format it, deterministically (keys in the order given).
 */
export interface KubeletEvictionSettings {
  /** signal -> threshold (`'10%'`, `'100Mi'`). */
  readonly evictionHard: Readonly<Record<string, string>>;
  readonly evictionSoft?: Readonly<Record<string, string>>;
  /** signal -> Go duration (`'1m30s'`). */
  readonly evictionSoftGracePeriod?: Readonly<Record<string, string>>;
  readonly evictionMinimumReclaim?: Readonly<Record<string, string>>;
  /** Seconds a pod evicted by a soft threshold gets to stop. */
  readonly evictionMaxPodGracePeriod?: number;
  /** 1.33+: signals not in evictionHard inherit the kubelet defaults. Omitted before 1.33. */
  readonly mergeDefaultEvictionSettings?: boolean;
}

/** A file to place on a node. */
export interface NodeFile {
  /** Absolute path on the node. */
  readonly path: string;
  readonly content: string;
  /** Octal mode, e.g. 0o644. */
  readonly mode: number;
}

/** The KubeletConfiguration fields of the settings, in a fixed order, empty maps left out. */
export function kubeletConfigurationFields(
  settings: KubeletEvictionSettings,
): Array<[string, Readonly<Record<string, string>> | number | boolean]> {
  const fields: Array<[string, Readonly<Record<string, string>> | number | boolean]> = [];
  if (settings.mergeDefaultEvictionSettings !== undefined)
    fields.push(['mergeDefaultEvictionSettings', settings.mergeDefaultEvictionSettings]);
  fields.push(['evictionHard', settings.evictionHard]);
  for (const key of ['evictionSoft', 'evictionSoftGracePeriod', 'evictionMinimumReclaim'] as const) {
    const map = settings[key];
    if (map && Object.keys(map).length > 0) fields.push([key, map]);
  }
  if (settings.evictionMaxPodGracePeriod !== undefined)
    fields.push(['evictionMaxPodGracePeriod', settings.evictionMaxPodGracePeriod]);
  return fields;
}

/** YAML lines for the fields: string values double-quoted (JSON strings are valid YAML scalars). */
export function kubeletConfigurationYaml(settings: KubeletEvictionSettings): string[] {
  const lines: string[] = [];
  for (const [name, value] of kubeletConfigurationFields(settings)) {
    if (typeof value === 'object') {
      lines.push(`${name}:`);
      for (const [signal, threshold] of Object.entries(value)) lines.push(`  ${signal}: ${JSON.stringify(threshold)}`);
    } else {
      lines.push(`${name}: ${String(value)}`);
    }
  }
  return lines;
}

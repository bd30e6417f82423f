import { DEFAULT_KUBERNETES_VERSION, KubeVersion, Severity } from '../../validators';

/**
 * The `properties` of the plugin's entry in `cdk8s.yaml`:
 *
 * ```yaml
 * validations:
 *   - package: ./node_modules/ballast/plugins/cdk8s
 *     version: 0.1.0
 *     class: BallastValidation
 *     properties:
 *       kubernetesVersion: "1.30"
 *       disabledRules: [recycle-reclaim-policy]
 *       severityOverrides: {persistent-volume-with-namespace: warning}
 * ```
 */
export interface BallastValidationProperties {
  /**
   * Target Kubernetes version, `MAJOR.MINOR`, quoted (YAML reads `1.30` as the number 1.3).
   * @default the `BALLAST_KUBERNETES_VERSION` environment variable, else '1.27'
   */
  readonly kubernetesVersion?: string;
  /** Rule ids not to run. @default - every rule runs */
  readonly disabledRules?: readonly string[];
  /** Severity per rule id. @default - each rule's own severity */
  readonly severityOverrides?: Readonly<Record<string, Severity>>;
}

const KNOWN_PROPERTIES = ['kubernetesVersion', 'disabledRules', 'severityOverrides'];
const SEVERITIES: readonly string[] = ['error', 'warning'];

/**
 * Reads the entry's `properties`, which come from hand-written YAML: every mistake is reported by
 * name, because a silently ignored option (a typo in `disabledRules`) would change what is checked.
 * Unknown rule ids are left to the engine, which rejects them with the list command to run.
 * @throws Error naming the property, the value and the expected form.
 */
export function parsePluginProperties(properties: unknown): Required<Pick<BallastValidationProperties, 'kubernetesVersion'>>
  & Omit<BallastValidationProperties, 'kubernetesVersion'> {
  const props = properties ?? {};
  if (typeof props !== 'object' || Array.isArray(props)) {
    throw optionError('properties', props, 'a mapping of option names to values');
  }
  const record = props as Record<string, unknown>;
  const unknown = Object.keys(record).filter((name) => !KNOWN_PROPERTIES.includes(name));
  if (unknown.length > 0) {
    throw new Error(`ballast cdk8s plugin: unknown propert${unknown.length === 1 ? 'y' : 'ies'} `
      + `${unknown.join(', ')}; the known ones are ${KNOWN_PROPERTIES.join(', ')}`);
  }

  const version = record.kubernetesVersion ?? (process.env.BALLAST_KUBERNETES_VERSION || DEFAULT_KUBERNETES_VERSION);
  if (typeof version !== 'string') {
    throw optionError('kubernetesVersion', version, 'a quoted string such as "1.30" (YAML reads 1.30 as the number 1.3)');
  }
  KubeVersion.parse(version);

  const disabledRules = record.disabledRules ?? [];
  if (!Array.isArray(disabledRules) || !disabledRules.every((id) => typeof id === 'string')) {
    throw optionError('disabledRules', disabledRules, 'a list of rule ids');
  }

  const overrides = record.severityOverrides ?? {};
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)
    || !Object.values(overrides).every((severity) => SEVERITIES.includes(severity as string))) {
    throw optionError('severityOverrides', overrides, 'a mapping of rule id to error or warning');
  }

  return {
    kubernetesVersion: version,
    disabledRules: disabledRules as string[],
    severityOverrides: overrides as Record<string, Severity>,
  };
}

function optionError(name: string, value: unknown, expected: string): Error {
  return new Error(`ballast cdk8s plugin: properties.${name} is ${JSON.stringify(value)}; expected ${expected}`);
}

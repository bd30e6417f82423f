import { DEFAULT_KUBERNETES_VERSION, KubeVersion, RuleSettings, Severity, validateObjects } from '../validators';
import { PropProblems } from './prop-error';

/** The gate's options, as a plain object (the same meaning as at every other door). */
export interface BallastGateOptions {
  /**
   * The Kubernetes version the app is deployed to, `MAJOR.MINOR`. Rules and constructs use it
   * (in-tree rbd is removed in 1.31, ReadWriteOncePod is GA in 1.29, ...).
   * @default '1.27' (the API level of cdk8s-plus-27), or the `BALLAST_KUBERNETES_VERSION` environment variable
   */
  readonly kubernetesVersion?: string;
  /**
   * Rule ids not to run. Prefer a per-object suppression annotation with a justification.
   * @default - every rule runs
   */
  readonly disabledRules?: readonly string[];
  /**
   * Severity per rule id, replacing the rule's own.
   * @default - each rule's own severity
   */
  readonly severityOverrides?: Readonly<Record<string, Severity>>;
  /**
   * Rule parameters.
   * @default - the defaults of each setting
   */
  readonly settings?: Partial<RuleSettings>;
}

/** The gate's options once parsed: what the rule engine takes. */
export interface ParsedGateOptions {
  readonly kubernetesVersion: KubeVersion;
  readonly disabledRules?: readonly string[];
  readonly severityOverrides?: Readonly<Record<string, Severity>>;
  readonly settings?: Partial<RuleSettings>;
}

/**
 * Parses the gate's options, reporting every problem at once. The one place the gate reads its
 * options: a shared options schema for every door replaces this function's body, not its callers.
 * @throws BallastPropError listing each invalid option
 */
export function parseGateOptions(options: BallastGateOptions, where: string): ParsedGateOptions {
  const problems = new PropProblems();
  const versionText = options.kubernetesVersion ?? process.env.BALLAST_KUBERNETES_VERSION ?? DEFAULT_KUBERNETES_VERSION;
  let kubernetesVersion: KubeVersion | undefined;
  try {
    kubernetesVersion = KubeVersion.parse(versionText);
  } catch (error) {
    problems.add('kubernetesVersion', versionText, (error as Error).message, 'use "1.27" or another MAJOR.MINOR');
  }
  const parsed = {
    kubernetesVersion: kubernetesVersion ?? KubeVersion.parse(DEFAULT_KUBERNETES_VERSION),
    disabledRules: options.disabledRules,
    severityOverrides: options.severityOverrides,
    settings: options.settings,
  };
  // Misspelt rule ids fail now rather than at synth.
  try {
    validateObjects([], parsed);
  } catch (error) {
    problems.add('disabledRules/severityOverrides', undefined, (error as Error).message, 'use ids from `ballast rules`');
  }
  problems.throwIfAny(where);
  return parsed;
}


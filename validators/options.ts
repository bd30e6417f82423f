import { z } from 'zod/v3';
import { ValidationOptions } from './engine';
import { Severity } from './finding';
import { isRecord } from './json';
import { DEFAULT_KUBERNETES_VERSION, KUBERNETES_VERSION_ENV, KubeVersion, targetVersionProblem } from './kube-version';
import { RuleParameterSchema } from './rule';
import { ALL_RULES } from './rules';

/**
 * The options every door takes, in one shape: the synth gate's props, `.ballast.yaml` for
 * `ballast lint`, the cdk8s-cli plugin's `properties`, the Pulumi policy pack's config and
 * `KubeletEvictionDropIns`. The same input means the same thing, and the same mistake gets the
 * same message, at every door.
 *
 * ```yaml
 * kubernetesVersion: "1.31"
 * rules:
 *   recycle-reclaim-policy: off          # off | on | error | warning
 *   persistent-volume-with-namespace: warning
 * parameters:
 *   nfs-volume-without-node-prerequisite:
 *     prerequisiteLabelKeys: [node.example.com/nfs-client]
 * ```
 */
export interface BallastOptions {
  /**
   * The Kubernetes version the objects are deployed to, as a quoted `"MAJOR.MINOR"` string.
   * @default the `BALLAST_KUBERNETES_VERSION` environment variable, else the newest minor the rules know
   */
  readonly kubernetesVersion?: string;
  /**
   * Per rule id: `off` (do not run), `on` (its own severity), `error` or `warning`. Prefer a
   * per-object suppression annotation with a justification to turning a rule off.
   * @default - every rule runs with its own severity
   */
  readonly rules?: Readonly<Record<string, RuleSwitch>>;
  /**
   * Per rule id, that rule's parameters (`ballast explain <rule>` lists them).
   * @default - each parameter's default
   */
  readonly parameters?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** What `rules:` says of one rule. YAML 1.1 readers turn a bare `off`/`on` into false/true: both spellings count. */
export type RuleSwitch = 'off' | 'on' | 'error' | 'warning' | boolean;

/** Where the target version came from, printed beside it in every report. */
export type VersionSource = 'command line' | 'environment' | 'configuration' | 'input' | 'default';

/** Options checked and turned into what the engine takes. */
export interface ResolvedOptions extends ValidationOptions {
  readonly kubernetesVersion: KubeVersion;
  readonly kubernetesVersionSource: VersionSource;
}

/** A door's options are wrong: every problem, each with its field path, the value and what to write. */
export class BallastOptionsError extends Error {
  constructor(
    public readonly where: string,
    public readonly problems: readonly string[],
  ) {
    super(`invalid ballast options in ${where}:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'BallastOptionsError';
  }
}

const KNOWN_RULE_IDS: ReadonlySet<string> = new Set(ALL_RULES.map((rule) => rule.id));

/** Each rule's parameter schema (`Rule.parameters`), by rule id. A rule without one takes none. */
const RULE_PARAMETERS: ReadonlyMap<string, RuleParameterSchema> = new Map(
  ALL_RULES.flatMap((rule) => (rule.parameters ? [[rule.id, rule.parameters] as const] : [])),
);

const ruleSwitch = z.union([z.enum(['off', 'on', 'error', 'warning']), z.boolean()], {
  errorMap: () => ({ message: 'expected off, on, error or warning' }),
});

const rulesSchema = z.record(z.string(), z.unknown(), {
  errorMap: () => ({ message: 'expected a mapping of rule id to off, on, error or warning' }),
});
const parametersSchema = z.record(z.string(), z.record(z.string(), z.unknown()), {
  errorMap: () => ({ message: "expected a mapping of rule id to that rule's parameters" }),
});

// Each part is checked on its own, so one wrong part does not hide the problems of the others.
const optionsSchema = z.strictObject(
  {
    // Checked by targetVersionProblem, so a number gets the hint to quote it.
    kubernetesVersion: z.unknown().optional(),
    rules: z.unknown().optional(),
    parameters: z.unknown().optional(),
  },
  { errorMap: () => ({ message: 'expected a mapping with kubernetesVersion, rules and parameters' }) },
);

export const KNOWN_OPTION_KEYS: readonly string[] = Object.keys(optionsSchema.shape);

/** How a door names the origin of the options in its messages, and what may override them. */
export interface ResolveContext {
  /** Where the options came from, for messages: `.ballast.yaml`, `cdk8s.yaml validations[0].properties`, ... */
  readonly where: string;
  /** A version given on the command line; beats the environment and the options. */
  readonly commandLineVersion?: string;
  /** @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Checks a door's options and resolves the target version: command line, else the
 * `BALLAST_KUBERNETES_VERSION` environment variable, else `kubernetesVersion` in the options, else
 * the newest minor the rules know.
 * @throws BallastOptionsError listing every problem at once.
 */
export function resolveOptions(input: unknown, context: ResolveContext): ResolvedOptions {
  const problems: string[] = [];
  const parsed = optionsSchema.safeParse(input ?? {});
  if (!parsed.success) problems.push(...issuesOf(parsed.error));
  const options = parsed.success ? parsed.data : isRecord(input) ? input : {};
  const rules = checked(rulesSchema, options.rules, 'rules', problems) ?? {};
  const parameters = checked(parametersSchema, options.parameters, 'parameters', problems) ?? {};

  const version = resolveVersion(options.kubernetesVersion, context, problems);

  const disabledRules: string[] = [];
  const enabledRules: string[] = [];
  const severityOverrides: Record<string, Severity> = {};
  for (const [id, value] of Object.entries(rules)) {
    const parsedSwitch = ruleSwitch.safeParse(value);
    if (!KNOWN_RULE_IDS.has(id)) {
      problems.push(`rules.${id}: unknown rule id; run \`ballast rules\` for the list`);
    } else if (!parsedSwitch.success) {
      problems.push(...issuesOf(parsedSwitch.error, ['rules', id]));
    } else if (parsedSwitch.data === 'off' || parsedSwitch.data === false) {
      disabledRules.push(id);
    } else {
      enabledRules.push(id);
      if (parsedSwitch.data === 'error' || parsedSwitch.data === 'warning') severityOverrides[id] = parsedSwitch.data;
    }
  }

  const ruleParameterValues: Record<string, Record<string, unknown>> = {};
  for (const [id, values] of Object.entries(parameters)) {
    const schema = RULE_PARAMETERS.get(id);
    if (!KNOWN_RULE_IDS.has(id)) {
      problems.push(`parameters.${id}: unknown rule id; run \`ballast rules\` for the list`);
    } else if (!schema) {
      problems.push(`parameters.${id}: this rule takes no parameters`);
    } else {
      const result = schema.safeParse(values);
      if (result.success) ruleParameterValues[id] = values;
      // Every rule's schema is a zod schema (RuleParameterSchema only hides zod from the published types).
      else problems.push(...issuesOf(result.error as z.ZodError, ['parameters', id]));
    }
  }

  if (problems.length > 0 || !version) throw new BallastOptionsError(context.where, problems);
  return {
    kubernetesVersion: version.version,
    kubernetesVersionSource: version.source,
    disabledRules,
    enabledRules,
    severityOverrides,
    parameters: ruleParameterValues,
  };
}

/** One parameter of a rule, for `ballast explain`, the catalogue and SARIF. */
export interface RuleParameterInfo {
  readonly name: string;
  readonly description: string;
  /** The value the rule uses when the options leave the parameter out. */
  readonly default: unknown;
}

/** The parameters a rule takes, with their descriptions and defaults (from `Rule.parameters`). */
export function ruleParameters(ruleId: string): readonly RuleParameterInfo[] {
  const schema = RULE_PARAMETERS.get(ruleId);
  if (!schema) return [];
  const defaults: Record<string, unknown> = schema.parse({});
  return Object.entries(schema.shape).map(([name, field]) => ({
    name,
    description: field.description ?? '',
    default: defaults[name],
  }));
}

function resolveVersion(
  configured: unknown,
  context: ResolveContext,
  problems: string[],
): { version: KubeVersion; source: VersionSource } | undefined {
  const env = context.env ?? process.env;
  const envValue = env[KUBERNETES_VERSION_ENV];
  const candidates: Array<[unknown, VersionSource, string]> = [
    [context.commandLineVersion, 'command line', '--kube-version'],
    [envValue === '' ? undefined : envValue, 'environment', KUBERNETES_VERSION_ENV],
    [configured, 'configuration', 'kubernetesVersion'],
  ];
  for (const [value, source, name] of candidates) {
    if (value === undefined) continue;
    const problem = targetVersionProblem(value);
    if (problem === undefined) return { version: KubeVersion.target(value), source };
    problems.push(`${name}: ${problem}`);
    return undefined;
  }
  return { version: KubeVersion.target(DEFAULT_KUBERNETES_VERSION), source: 'default' };
}

/** `value` parsed by `schema`, or undefined (with its problems recorded) when absent or wrong. */
function checked<T>(schema: z.ZodType<T>, value: unknown, name: string, problems: string[]): T | undefined {
  if (value === undefined) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  problems.push(...issuesOf(result.error, [name]));
  return undefined;
}

function issuesOf(error: z.ZodError, prefix: readonly PropertyKey[] = []): string[] {
  return error.issues.flatMap((issue) => describeIssue(issue, prefix));
}

function describeIssue(issue: z.ZodIssue, prefix: readonly PropertyKey[]): string[] {
  const path = [...prefix, ...issue.path].map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const known = prefix.length === 0 ? KNOWN_OPTION_KEYS.join(', ') : 'see `ballast explain`';
    return issue.keys.map((key) => `${path ? `${path}.` : ''}${key}: unknown option; known: ${known}`);
  }
  return [`${path || '(options)'}: ${issue.message}`];
}

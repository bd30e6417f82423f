import { Finding, ObjectSource, Severity } from './finding';
import { JsonRecord, isRecord } from './json';
import { DEFAULT_KUBERNETES_VERSION, KubeVersion } from './kube-version';
import { IndexedObject, ObjectIndex } from './object-index';
import { Rule, RuleContext, RuleReport, appliesTo } from './rule';
import { ALL_RULES } from './rules';
import { suppressionJustification } from './suppression';

/** One object to validate, with where it came from. */
export interface ValidationInput {
  /** A Kubernetes object as plain JSON. Anything that is not a JSON object is skipped. */
  readonly object: unknown;
  readonly source?: ObjectSource;
  /**
   * A kustomize patch, not an object of the set: no rule judges it here, and rules read it only as
   * a fact about its base (`ObjectIndex.patchesOfKind`: a StorageClass patch that sets the default).
   * @default false
   */
  readonly patch?: boolean;
}

export interface ValidationOptions {
  /** Target Kubernetes version, `MAJOR.MINOR`. @default DEFAULT_KUBERNETES_VERSION */
  readonly kubernetesVersion?: string | KubeVersion;
  /** The rules to run. @default every ballast rule */
  readonly rules?: readonly Rule[];
  /** Ids of rules to skip. Unknown ids are an error (a typo must not silently disable nothing). */
  readonly disabledRules?: readonly string[];
  /** Ids of opt-in rules to run (see `Rule.optIn`). Unknown ids are an error. */
  readonly enabledRules?: readonly string[];
  /** Severity per rule id, replacing the rule's own. Unknown ids are an error. */
  readonly severityOverrides?: Readonly<Record<string, Severity>>;
  /**
   * Per rule id, that rule's parameters (`Rule.parameters`); what is left out takes its default.
   * Unknown ids, parameters of a rule that takes none and values its schema refuses are an error.
   */
  readonly parameters?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

export interface ValidationReport {
  /** Every finding, suppressed ones included, sorted by object then field path then rule. */
  readonly findings: readonly Finding[];
  /** How many objects were validated. */
  readonly objects: number;
  /** Unsuppressed error findings. */
  readonly errors: number;
  /** Unsuppressed warning findings. */
  readonly warnings: number;
  /** Suppressed findings of any severity. */
  readonly suppressed: number;
}

/** Validates a set of objects as one set: cross-object rules see all of them. */
export function validateObjects(inputs: Iterable<ValidationInput>, options: ValidationOptions = {}): ValidationReport {
  const rules = options.rules ?? ALL_RULES;
  const knownRuleIds = new Set(rules.map((rule) => rule.id));
  checkRuleIds('disabledRules', options.disabledRules ?? [], knownRuleIds);
  checkRuleIds('severityOverrides', Object.keys(options.severityOverrides ?? {}), knownRuleIds);
  checkRuleIds('enabledRules', options.enabledRules ?? [], knownRuleIds);
  checkRuleIds('parameters', Object.keys(options.parameters ?? {}), knownRuleIds);
  for (const [id, values] of Object.entries(options.parameters ?? {})) checkParameters(rules, id, values);
  const disabled = new Set(options.disabledRules ?? []);
  const enabled = new Set(options.enabledRules ?? []);
  const version =
    typeof options.kubernetesVersion === 'object'
      ? options.kubernetesVersion
      : KubeVersion.parse(options.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION);

  const objects: Array<{ object: JsonRecord; source?: ObjectSource }> = [];
  const patches: Array<{ object: JsonRecord; source?: ObjectSource }> = [];
  for (const input of inputs) {
    if (isRecord(input.object))
      (input.patch === true ? patches : objects).push({ object: input.object, source: input.source });
  }
  const index = new ObjectIndex(objects, patches);
  const findings: Array<Finding & { position: number }> = [];

  for (const rule of rules) {
    if (disabled.has(rule.id) || (rule.optIn === true && !enabled.has(rule.id)) || !appliesTo(rule, version)) continue;
    const severityOverride = options.severityOverrides?.[rule.id];
    const context: RuleContext = {
      index,
      kubernetesVersion: version,
      parameters: options.parameters?.[rule.id] ?? {},
      knownRuleIds,
      report: (object: IndexedObject, report: RuleReport) => {
        const justification = suppressionJustification(object, rule.id);
        findings.push({
          rule: rule.id,
          severity: severityOverride ?? report.severity ?? rule.severity,
          message: report.message,
          fix: report.fix ?? rule.fix,
          object: object.ref,
          source: object.source,
          path: report.path,
          suppressed: justification !== undefined,
          ...(justification !== undefined ? { justification } : {}),
          position: object.position,
        });
      },
    };
    runRule(rule, context, index);
  }

  findings.sort(
    (a, b) =>
      a.position - b.position ||
      compareText(a.path, b.path) ||
      compareText(a.rule, b.rule) ||
      compareText(a.message, b.message),
  );
  const result: Finding[] = findings.map(({ position: _position, ...finding }) => finding);
  return {
    findings: result,
    objects: objects.length,
    errors: result.filter((f) => !f.suppressed && f.severity === 'error').length,
    warnings: result.filter((f) => !f.suppressed && f.severity === 'warning').length,
    suppressed: result.filter((f) => f.suppressed).length,
  };
}

/**
 * Rules are written to tolerate any JSON shape; should one still throw, the run goes on and the
 * failure is reported as an error finding on the first object, so nothing is silently skipped.
 */
function runRule(rule: Rule, context: RuleContext, index: ObjectIndex): void {
  try {
    rule.check(context);
  } catch (error) {
    const first = index.objects[0];
    if (!first) return;
    context.report(first, {
      path: '',
      severity: 'error',
      message: `internal error in rule ${rule.id}: ${error instanceof Error ? error.message : String(error)}`,
      fix: 'This is a bug in ballast: please report it with the manifest that triggered it.',
    });
  }
}

function checkRuleIds(option: string, ids: readonly string[], known: ReadonlySet<string>): void {
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new Error(`${option}: unknown rule id(s) ${unknown.join(', ')}; run \`ballast rules\` for the list`);
  }
}

function checkParameters(rules: readonly Rule[], id: string, values: unknown): void {
  const schema = rules.find((rule) => rule.id === id)?.parameters;
  if (!schema) throw new Error(`parameters: rule ${id} takes no parameters`);
  const result = schema.safeParse(values);
  if (!result.success) {
    throw new Error(
      `parameters.${id}: ${result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

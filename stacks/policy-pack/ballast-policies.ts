import type { PolicyConfigSchema, StackValidationArgs, StackValidationPolicy } from '@pulumi/policy';
import {
  BallastOptions,
  KNOWN_OPTION_KEYS,
  Severity,
  ValidationInput,
  acceptAdvice,
  findingLine,
  listedObjects,
  resolveOptions,
  targetDescription,
  validateObjects,
} from '../../validators';
import { StackResource, kubernetesObjectOf } from './kubernetes-resources';

/**
 * Options of the ballast policies, in code or per policy in the pack's config file: the options
 * every ballast door takes. A rule turned into a warning by `rules:` moves to the advisory policy.
 */
export type BallastPolicyConfig = BallastOptions;

/** One violation to report: the message and the resource it is about. */
export interface StackViolation {
  readonly rule: string;
  readonly message: string;
  readonly urn: string;
}

/**
 * Runs every ballast rule over the Kubernetes objects of the whole stack, as one set (cross-object
 * rules need the claim and the Deployment together), and returns the unsuppressed findings of one
 * severity as violations.
 */
export function ballastStackViolations(
  resources: readonly StackResource[],
  severity: Severity,
  config: BallastPolicyConfig = {},
): StackViolation[] {
  const inputs: ValidationInput[] = [];
  for (const resource of resources) {
    const stackObject = kubernetesObjectOf(resource);
    if (!stackObject) continue;
    for (const { object } of listedObjects(stackObject.object))
      inputs.push({ object, source: { constructPath: stackObject.urn } });
  }
  const options = resolveOptions(config, { where: 'the ballast policy pack config' });
  const report = validateObjects(inputs, options);
  const target = targetDescription(options.kubernetesVersion, options.kubernetesVersionSource);
  return report.findings
    .filter((finding) => !finding.suppressed && finding.severity === severity)
    .map((finding) => ({
      rule: finding.rule,
      message: `${findingLine(finding)}\n${acceptAdvice(finding.rule)} Target: ${target}.`,
      urn: finding.source.constructPath ?? '',
    }));
}

/**
 * What Pulumi checks before the pack runs: only the option names and their JSON types. The values
 * are checked by the one ballast options schema (resolveOptions), with the same messages as at
 * every other door.
 */
const CONFIG_SCHEMA: PolicyConfigSchema = {
  properties: Object.fromEntries(
    KNOWN_OPTION_KEYS.map((key) => [key, { type: key === 'kubernetesVersion' ? ['string', 'number'] : 'object' }]),
  ),
};

/**
 * The two stack policies of the pack: `ballast-errors` (mandatory: blocks `pulumi up`) and
 * `ballast-warnings` (advisory). Stack policies, not resource policies, so that cross-object rules
 * see every resource. `defaults` apply unless the pack's config file sets the option for the policy.
 */
export function ballastStackPolicies(defaults: BallastPolicyConfig = {}): StackValidationPolicy[] {
  const policy = (name: string, severity: Severity, description: string): StackValidationPolicy => ({
    name,
    description,
    enforcementLevel: severity === 'error' ? 'mandatory' : 'advisory',
    configSchema: CONFIG_SCHEMA,
    validateStack: (args: StackValidationArgs, reportViolation) => {
      const config = { ...defaults, ...args.getConfig<BallastPolicyConfig>() };
      for (const violation of ballastStackViolations(args.resources, severity, config)) {
        reportViolation(violation.message, violation.urn || undefined);
      }
    },
  });
  return [
    policy(
      'ballast-errors',
      'error',
      'Kubernetes objects that the ballast rules find unsafe for stateful workloads (error findings).',
    ),
    policy('ballast-warnings', 'warning', 'Kubernetes objects with ballast warning findings: risky, but not blocking.'),
  ];
}

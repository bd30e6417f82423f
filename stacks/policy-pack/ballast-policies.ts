import type { PolicyConfigSchema, StackValidationArgs, StackValidationPolicy } from '@pulumi/policy';
import {
  DEFAULT_KUBERNETES_VERSION, Finding, Severity, ValidationInput, describeObject, suppressionAnnotation, validateObjects,
} from '../../validators';
import { StackResource, kubernetesObjectOf } from './kubernetes-resources';

/** Options of the ballast policies: in code, or per policy in the pack's config file. */
export interface BallastPolicyConfig {
  /** Target Kubernetes version, `MAJOR.MINOR`. @default '1.27' */
  readonly kubernetesVersion?: string;
  /** Rule ids not to run. @default - every rule runs */
  readonly disabledRules?: readonly string[];
  /** Severity per rule id; a rule turned into a warning moves to the advisory policy. @default - each rule's own */
  readonly severityOverrides?: Readonly<Record<string, Severity>>;
}

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
  resources: readonly StackResource[], severity: Severity, config: BallastPolicyConfig = {},
): StackViolation[] {
  const inputs: ValidationInput[] = [];
  for (const resource of resources) {
    const stackObject = kubernetesObjectOf(resource);
    if (stackObject) inputs.push({ object: stackObject.object, source: { constructPath: stackObject.urn } });
  }
  const report = validateObjects(inputs, {
    kubernetesVersion: config.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION,
    disabledRules: config.disabledRules,
    severityOverrides: config.severityOverrides,
  });
  return report.findings
    .filter((finding) => !finding.suppressed && finding.severity === severity)
    .map((finding) => ({ rule: finding.rule, message: violationMessage(finding), urn: finding.source.constructPath ?? '' }));
}

function violationMessage(finding: Finding): string {
  return `[${finding.rule}] ${describeObject(finding.object)} at ${finding.path || '(whole object)'}: ${finding.message}\n`
    + `Fix: ${finding.fix}\n`
    + `To accept it for this object: annotation ${suppressionAnnotation(finding.rule)}: "<reason>". `
    + `Details: ballast explain ${finding.rule}`;
}

const CONFIG_SCHEMA: PolicyConfigSchema = {
  properties: {
    kubernetesVersion: { type: 'string', pattern: '^v?\\d+\\.\\d+(\\.\\d+)?$' },
    disabledRules: { type: 'array', items: { type: 'string' } },
    severityOverrides: { type: 'object', additionalProperties: { type: 'string', enum: ['error', 'warning'] } },
  },
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
    policy('ballast-errors', 'error', 'Kubernetes objects that the ballast rules find unsafe for stateful workloads (error findings).'),
    policy('ballast-warnings', 'warning', 'Kubernetes objects with ballast warning findings: risky, but not blocking.'),
  ];
}

import type { Validation, ValidationContext } from 'cdk8s-cli/plugins';
import {
  Finding, ValidationInput, asString, describeObject, getRecord, ownEntry, suppressionAnnotation, validateObjects,
} from '../../validators';
import { BallastValidationProperties, parsePluginProperties } from './plugin-options';

/**
 * The ballast rules as a cdk8s-cli validation plugin: any cdk8s app, built with ballast
 * constructs or not, gets them by one entry under `validations:` in its `cdk8s.yaml`.
 * `cdk8s synth` then exits 2 on any unsuppressed error finding; warnings are reported and pass.
 */
export class BallastValidation implements Validation {
  private readonly options: ReturnType<typeof parsePluginProperties>;

  /** cdk8s-cli calls this with the entry's `properties` (or `{}`). Bad properties throw here. */
  constructor(properties: BallastValidationProperties = {}) {
    this.options = parsePluginProperties(properties);
    // Unknown rule ids in the options are a configuration error: report it before synth output.
    validateObjects([], this.options);
  }

  public async validate(context: ValidationContext): Promise<void> {
    // All manifests form ONE set: cross-object rules (a claim and its workload, a role and its
    // binding) must see objects that cdk8s wrote to different chart files.
    const inputs: ValidationInput[] = [];
    for (const manifestPath of context.manifests) {
      for (const object of context.parseManifest(manifestPath)) {
        const name = asString(getRecord(object, 'metadata')?.name);
        // cdk8s records the construct path of each ApiObject by its metadata.name.
        const constructPath = name !== undefined ? ownEntry(context.metadata, name)?.path : undefined;
        inputs.push({ object, source: { file: manifestPath, ...(constructPath ? { constructPath } : {}) } });
      }
    }

    const report = validateObjects(inputs, this.options);
    for (const finding of report.findings) {
      if (finding.suppressed) {
        context.logger.log(`ballast: ${finding.rule} suppressed on ${describeObject(finding.object)}: ${finding.justification}`);
        continue;
      }
      context.report.addViolation({
        ruleName: finding.rule,
        recommendation: `${finding.severity === 'error' ? 'Error' : 'Warning'} on ${describeObject(finding.object)}: ${finding.message}`,
        fix: fixText(finding),
        violatingResources: [{
          resourceName: finding.object.name ?? describeObject(finding.object),
          manifestPath: finding.source.file ?? '',
          locations: [finding.path === '' ? '(whole object)' : finding.path],
        }],
      });
    }

    context.report.submit(report.errors > 0 ? 'failure' : 'success', {
      'Kubernetes version': this.options.kubernetesVersion,
      Objects: String(report.objects),
      Errors: String(report.errors),
      Warnings: String(report.warnings),
      Suppressed: String(report.suppressed),
    });
  }
}

/** The fix, and how to accept the finding instead, so the report alone is enough to act on. */
function fixText(finding: Finding): string {
  return `${finding.fix} To accept it for this object, annotate it with `
    + `${suppressionAnnotation(finding.rule)}: "<reason>". Details: ballast explain ${finding.rule}`;
}

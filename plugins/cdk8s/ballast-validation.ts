import type { Validation, ValidationContext } from 'cdk8s-cli/plugins';
import {
  BallastOptions,
  ResolvedOptions,
  ValidationInput,
  acceptAdvice,
  asString,
  describeObject,
  findingLine,
  getRecord,
  listedObjects,
  ownEntry,
  resolveOptions,
  targetDescription,
  terminalSafe,
  validateObjects,
} from '../../validators';

/**
 * The `properties` of the plugin's entry in `cdk8s.yaml`: the options every ballast door takes.
 *
 * ```yaml
 * validations:
 *   - package: ./node_modules/ballast-k8s/plugins/cdk8s
 *     version: 0.1.0
 *     class: BallastValidation
 *     properties:
 *       kubernetesVersion: "1.31"
 *       rules: {recycle-reclaim-policy: off}
 * ```
 */
export type BallastValidationProperties = BallastOptions;

/**
 * The ballast rules as a cdk8s-cli validation plugin: any cdk8s app, built with ballast
 * constructs or not, gets them by one entry under `validations:` in its `cdk8s.yaml`.
 * `cdk8s synth` then exits 2 on any unsuppressed error finding; warnings are reported and pass.
 */
export class BallastValidation implements Validation {
  private readonly options: ResolvedOptions;

  /**
   * cdk8s-cli calls this with the entry's `properties` (or `{}`). Bad properties throw here, all
   * of them in one message, before any synth output.
   */
  constructor(properties: BallastValidationProperties = {}) {
    this.options = resolveOptions(properties, { where: 'the ballast entry of cdk8s.yaml `validations` (properties)' });
  }

  public validate(context: ValidationContext): Promise<void> {
    // All manifests form ONE set: cross-object rules (a claim and its workload, a role and its
    // binding) must see objects that cdk8s wrote to different chart files.
    const inputs: ValidationInput[] = [];
    for (const manifestPath of context.manifests) {
      for (const document of context.parseManifest(manifestPath)) {
        // cdk8s records the construct path of each ApiObject by its metadata.name (a List's own).
        const name = asString(getRecord(document, 'metadata')?.name);
        const constructPath = name !== undefined ? ownEntry(context.metadata, name)?.path : undefined;
        for (const { object } of listedObjects(document)) {
          inputs.push({ object, source: { file: manifestPath, ...(constructPath ? { constructPath } : {}) } });
        }
      }
    }

    const report = validateObjects(inputs, this.options);
    for (const finding of report.findings) {
      if (finding.suppressed) {
        context.logger.log(`ballast: ${findingLine(finding)}`);
        continue;
      }
      context.report.addViolation({
        ruleName: finding.rule,
        recommendation: findingLine(finding),
        fix: `${terminalSafe(finding.fix)} ${acceptAdvice(finding.rule)}`,
        violatingResources: [
          {
            resourceName: terminalSafe(finding.object.name ?? describeObject(finding.object)),
            manifestPath: finding.source.file ?? '',
            locations: [finding.path === '' ? '(whole object)' : finding.path],
          },
        ],
      });
    }

    context.report.submit(report.errors > 0 ? 'failure' : 'success', {
      'Kubernetes version': targetDescription(this.options.kubernetesVersion, this.options.kubernetesVersionSource),
      Objects: String(report.objects),
      Errors: String(report.errors),
      Warnings: String(report.warnings),
      Suppressed: String(report.suppressed),
    });
    return Promise.resolve();
  }
}

import { ApiObject } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import {
  DEFAULT_KUBERNETES_VERSION,
  Finding,
  KubeVersion,
  RuleSettings,
  Severity,
  ValidationReport,
  describeObject,
  validateObjects,
} from '../validators';
import { BallastPropError } from './prop-error';

export interface BallastGateProps {
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
  /**
   * Where warnings and suppressed findings are printed during synth.
   * @default console.warn
   */
  readonly log?: (line: string) => void;
}

const GATE_ID = 'BallastGate';
const GATE_SYMBOL = Symbol.for('ballast.BallastGate');

/**
 * The synth gate: validates every API object in the whole app (ballast constructs, raw
 * `ApiObject`s, `Include`d YAML, across all charts) and refuses to synthesize while an
 * unsuppressed error exists. Warnings are printed and do not block.
 *
 * Every ballast construct installs the gate on its app with the defaults; create it yourself,
 * first, to choose the target version:
 *
 * ```ts
 * const app = new App();
 * new BallastGate(app, { kubernetesVersion: '1.30' });
 * ```
 */
export class BallastGate extends Construct {
  /** The gate of the app `scope` belongs to, installed with the defaults if there is none yet. */
  public static of(scope: IConstruct): BallastGate {
    const existing = scope.node.root.node.tryFindChild(GATE_ID);
    if (existing && BallastGate.isBallastGate(existing)) return existing;
    return new BallastGate(scope.node.root, {});
  }

  /** True for a BallastGate, also across copies of the ballast package. */
  public static isBallastGate(value: unknown): value is BallastGate {
    return typeof value === 'object' && value !== null && GATE_SYMBOL in value;
  }

  /** The target Kubernetes version. */
  public readonly kubernetesVersion: KubeVersion;
  private readonly props: BallastGateProps;
  private cached?: { objects: readonly ApiObject[]; report: ValidationReport };
  private synthDepth = 0;

  constructor(scope: IConstruct, props: BallastGateProps = {}) {
    const root = scope.node.root;
    if (root.node.tryFindChild(GATE_ID)) {
      throw new Error(
        'this app already has a BallastGate: create `new BallastGate(app, {...})` once, before any ballast '
        + 'construct (ballast constructs install a default gate when there is none).',
      );
    }
    super(root as Construct, GATE_ID);
    Object.defineProperty(this, GATE_SYMBOL, { value: true });
    const version = props.kubernetesVersion ?? process.env.BALLAST_KUBERNETES_VERSION ?? DEFAULT_KUBERNETES_VERSION;
    try {
      this.kubernetesVersion = KubeVersion.parse(version);
    } catch (error) {
      throw new BallastPropError(this, 'kubernetesVersion', version, (error as Error).message, 'use "1.27" or another MAJOR.MINOR');
    }
    this.props = props;
    // Fail now on misspelt rule ids rather than at synth.
    try {
      validateObjects([], this.validationOptions());
    } catch (error) {
      throw new BallastPropError(this, 'disabledRules/severityOverrides', undefined, (error as Error).message, 'use ids from `ballast rules`');
    }
    this.reuseReportsDuringSynth(root);
    this.node.addValidation({ validate: () => this.gate() });
  }

  /** Validates every API object of the app now and returns the report (suppressed findings included). */
  public validateApp(): ValidationReport {
    return this.run().report;
  }

  private run(): { report: ValidationReport; fresh: boolean } {
    const objects = this.node.root.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c));
    const cached = this.cached;
    if (this.synthDepth > 0 && cached && cached.objects.length === objects.length && cached.objects.every((o, i) => o === objects[i])) {
      return { report: cached.report, fresh: false };
    }
    const manifests = objects.map((object) => object.toJson());
    const report = validateObjects(
      manifests.map((manifest, i) => ({ object: manifest, source: { constructPath: objects[i].node.path } })),
      this.validationOptions(),
    );
    if (this.synthDepth > 0) {
      this.cached = { objects, report };
      this.reuseManifestsUntilSynthEnds(objects, manifests);
    }
    return { report, fresh: true };
  }

  /**
   * cdk8s validates the whole app once in App.synth() and again for every chart it writes. No
   * user code runs in between, so inside App.synth() the app is validated once and the report
   * reused; outside it (Chart.toJson, Testing.synth) every call validates afresh, so mutations
   * such as addJsonPatch are always seen.
   */
  private reuseReportsDuringSynth(root: IConstruct): void {
    const app = root as unknown as Record<string, unknown>;
    for (const method of ['synth', 'synthYaml']) {
      const original = app[method];
      if (typeof original !== 'function') continue;
      app[method] = (...args: unknown[]) => {
        this.synthDepth++;
        try {
          return original.apply(root, args);
        } finally {
          this.synthDepth--;
          if (this.synthDepth === 0) this.endSynth();
        }
      };
    }
  }

  /**
   * Serializing the objects is most of the gate's cost, and the writer serializes them again
   * right after. Within one App.synth() nothing can change them, so the writer is handed the
   * manifests the gate validated (which also guarantees that what is written is what was checked).
   */
  private reuseManifestsUntilSynthEnds(objects: readonly ApiObject[], manifests: readonly unknown[]): void {
    objects.forEach((object, i) => {
      Object.defineProperty(object, 'toJson', { value: () => manifests[i], configurable: true, writable: true });
    });
  }

  private endSynth(): void {
    // Restore the prototype's toJson on every object the gate handed manifests to.
    for (const object of this.cached?.objects ?? []) delete (object as unknown as Record<string, unknown>).toJson;
    this.cached = undefined;
  }

  private validationOptions() {
    return {
      kubernetesVersion: this.kubernetesVersion,
      disabledRules: this.props.disabledRules,
      severityOverrides: this.props.severityOverrides,
      settings: this.props.settings,
    };
  }

  private gate(): string[] {
    const { report, fresh } = this.run();
    const errors = report.findings.filter((f) => f.severity === 'error' && !f.suppressed);
    if (fresh) {
      const log = this.props.log ?? ((line: string) => console.warn(line));
      for (const finding of report.findings) {
        if (finding.suppressed) log(`ballast: suppressed ${formatFinding(finding)} (justification: ${finding.justification})`);
        else if (finding.severity === 'warning') log(`ballast: ${formatFinding(finding)}`);
      }
    }
    if (errors.length === 0) return [];
    return [
      `ballast refused to synthesize: ${errors.length} error(s) (target Kubernetes ${this.kubernetesVersion}).`,
      ...errors.map(formatFinding),
    ];
  }
}

/** One finding on one line, as the gate prints it. */
export function formatFinding(finding: Finding): string {
  const where = finding.source.constructPath ?? (finding.source.file ? `${finding.source.file}:${finding.source.line ?? 1}` : '');
  return `${finding.severity} ${finding.rule}: ${describeObject(finding.object)}`
    + `${where ? ` at ${where}` : ''}${finding.path ? `, field ${finding.path}` : ''}: ${finding.message} Fix: ${finding.fix}`;
}

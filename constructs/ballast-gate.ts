import { ApiObject } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import {
  BallastOptions,
  BallastOptionsError,
  KubeVersion,
  ResolvedOptions,
  ValidationReport,
  findingLine,
  resolveOptions,
  targetDescription,
  validateObjects,
} from '../validators';
import { BallastPropError } from './prop-error';

/**
 * The gate's props: the options every ballast door takes (`kubernetesVersion`, `rules`,
 * `parameters`; the same as `.ballast.yaml`, the cdk8s plugin's properties and the policy pack's
 * config), and where to print warnings.
 */
export interface BallastGateProps extends BallastOptions {
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
  /** The gate's options, resolved: what every construct of the app validates with. */
  public readonly options: ResolvedOptions;
  private readonly log: (line: string) => void;
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
    const { log, ...options } = props;
    try {
      this.options = resolveOptions(options, { where: `the props of ${this.node.path}` });
    } catch (error) {
      if (error instanceof BallastOptionsError) throw new BallastPropError(this, 'props', undefined, error.message, 'see the BallastGate props');
      throw error;
    }
    this.kubernetesVersion = this.options.kubernetesVersion;
    this.log = log ?? ((line: string) => console.warn(line));
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
      this.options,
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

  private gate(): string[] {
    const { report, fresh } = this.run();
    const errors = report.findings.filter((f) => f.severity === 'error' && !f.suppressed);
    if (fresh) {
      for (const finding of report.findings) {
        if (finding.suppressed || finding.severity === 'warning') this.log(`ballast: ${findingLine(finding)}`);
      }
    }
    if (errors.length === 0) return [];
    return [
      `ballast refused to synthesize: ${errors.length} error(s) (target ${targetDescription(this.kubernetesVersion, this.options.kubernetesVersionSource)}).`,
      ...errors.map(findingLine),
    ];
  }
}

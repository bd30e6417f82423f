import { createHash } from 'crypto';
import { ApiObject } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import {
  BallastOptions,
  KubeVersion,
  ResolvedOptions,
  ValidationInput,
  ValidationReport,
  findingLine,
  listedObjects,
  targetDescription,
  validateObjects,
} from '../validators';
import { parseGateOptions } from './gate-options';
import { markUserError } from './prop-error';

/**
 * The gate's props: the options every ballast door takes (`kubernetesVersion`, `rules`,
 * `parameters`: the same as `.ballast.yaml`, the cdk8s plugin's properties and the policy pack's
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
 * It is a cdk8s validation (`node.addValidation`): cdk8s runs it in `App.synth()`,
 * `App.synthYaml()` and `Chart.toJson()` (so `Testing.synth`) before anything is written or
 * returned. Nothing of cdk8s is replaced.
 *
 * Every ballast construct installs the gate on its app with the defaults; create it yourself,
 * first, to choose the target version (or add it to an app without ballast constructs):
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

  /** The gate of the app `scope` belongs to, or undefined when it has none. */
  public static find(scope: IConstruct): BallastGate | undefined {
    const existing = scope.node.root.node.tryFindChild(GATE_ID);
    return existing && BallastGate.isBallastGate(existing) ? existing : undefined;
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
  /**
   * The last report, with the objects it saw and a digest of the manifests it was made from (none
   * when made within a synth, where nothing can change until it returns: the digest would go unused).
   */
  private last?: { digest?: string; report: ValidationReport; objects: readonly ApiObject[] };
  /** True while {@link withinSynth} runs a synth. */
  private synthesizing = false;

  constructor(scope: IConstruct, props: BallastGateProps = {}) {
    const root = scope.node.root;
    if (root.node.tryFindChild(GATE_ID)) {
      throw markUserError(
        new Error(
          'this app already has a BallastGate: create `new BallastGate(app, {...})` once, before any ballast ' +
            'construct (ballast constructs install a default gate when there is none).',
        ),
      );
    }
    super(root, GATE_ID);
    Object.defineProperty(this, GATE_SYMBOL, { value: true });
    const { log, ...options } = props;
    this.options = parseGateOptions(options, this.node.path);
    this.kubernetesVersion = this.options.kubernetesVersion;
    this.log = log ?? ((line: string) => console.warn(line));
    this.node.addValidation({ validate: () => this.gate() });
  }

  /** Validates every API object of the app now and returns the report (suppressed findings included). */
  public validateApp(): ValidationReport {
    return this.run().report;
  }

  /**
   * Runs `synth` (e.g. `() => app.synth()`) telling the gate that no user code runs until it
   * returns, so the app is serialized and validated once, not once more per chart. `synthOrExit`
   * uses it; a plain `app.synth()` is validated just as strictly, only with more serializing.
   */
  public withinSynth<T>(synth: () => T): T {
    this.synthesizing = true;
    this.last = undefined;
    try {
      return synth();
    } finally {
      this.synthesizing = false;
    }
  }

  /**
   * cdk8s validates the whole app once in App.synth() and again for every chart it writes. The
   * manifests are serialized each time (that is what sees addJsonPatch and every later change);
   * when they are byte-identical to the last validated ones, the last report is reused and its
   * warnings are not printed again. Within {@link withinSynth} nothing can change between the
   * validations, so the report is reused without serializing again.
   */
  private run(): { report: ValidationReport; fresh: boolean } {
    const objects = this.node.root.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c));
    const last = this.last;
    if (this.synthesizing && last && sameObjects(last.objects, objects)) return { report: last.report, fresh: false };
    const inputs = this.inputs(objects);
    const digest = this.synthesizing ? undefined : digestOf(inputs);
    if (last && digest !== undefined && last.digest === digest) {
      this.last = { ...last, objects };
      return { report: last.report, fresh: false };
    }
    const report = validateObjects(inputs, this.options);
    this.last = { ...(digest !== undefined ? { digest } : {}), report, objects };
    return { report, fresh: true };
  }

  /** The API objects, as the rule engine takes them. */
  private inputs(objects: readonly ApiObject[]): ValidationInput[] {
    // A raw ApiObject or an Included file may hold a List: its items are checked one by one.
    return objects.flatMap((object) =>
      listedObjects(object.toJson()).map(({ object: item }) => ({
        object: item,
        source: { constructPath: object.node.path },
      })),
    );
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

/** A digest of the manifests and where each came from: equal digests, equal reports. */
function digestOf(inputs: readonly ValidationInput[]): string {
  const hash = createHash('sha256');
  for (const input of inputs)
    hash.update(`${input.source?.constructPath ?? ''}\u0000${JSON.stringify(input.object)}\u0000`);
  return hash.digest('hex');
}

function sameObjects(a: readonly ApiObject[], b: readonly ApiObject[]): boolean {
  return a.length === b.length && a.every((object, i) => object === b[i]);
}

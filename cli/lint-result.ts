import { FixEdit, Severity, VersionSource } from '../validators';
import type { ObjectLocation } from './text-edits';

/** One finding as `ballast lint` reports it (the `--format json` contract). */
export interface LintFinding {
  readonly rule: string;
  readonly severity: Severity;
  readonly message: string;
  readonly fix: string;
  /** The file as found from the paths given (`<stdin>` for `-`); null for objects without one. */
  readonly file: string | null;
  /** 1-based line of the field (or of the object, or of the syntax error); null when unknown. */
  readonly line: number | null;
  readonly object: LintObjectRef;
  readonly path: string;
  readonly suppressed: boolean;
  /** Stable across runs (rule, object, field path; not the line): see finding-fingerprint.ts. */
  readonly fingerprint: string;
  /** Recorded in the suppressions file (`--suppress-all`): reported, but it fails no run. */
  readonly baselined: boolean;
  /** The machine-applicable fix (`ballast fix` applies it), by field path from the object; empty when there is none. */
  readonly edits: readonly FixEdit[];
  /** What must be true outside the file before the fixed objects are applied (nodes labelled); absent when nothing. */
  readonly precondition?: string;
  /** Not part of the JSON output: why there is no machine-applicable fix. */
  readonly noFix?: string;
  /** Not part of the JSON output: a fix exists, held back by `--no-require-node-labels`. */
  readonly waitsForNodeLabels?: boolean;
  /** Not part of the JSON output: the fix as text replacements in the file (for SARIF `fixes`), when asked for. */
  readonly replacements?: ReadonlyArray<{ readonly start: number; readonly end: number; readonly text: string }>;
  /** Not part of the JSON output: where the object sits in its file (for `ballast fix`). */
  readonly location?: ObjectLocation;
  /** Not part of the JSON output: the suppression annotation's reason, for text and SARIF. */
  readonly justification?: string;
}

export interface LintObjectRef {
  readonly apiVersion: string | null;
  readonly kind: string | null;
  readonly namespace: string | null;
  readonly name: string | null;
}

export interface LintSummary {
  readonly files: number;
  readonly objects: number;
  readonly errors: number;
  readonly warnings: number;
  readonly suppressed: number;
  /** Findings recorded in the suppressions file: not counted as errors or warnings. */
  readonly baselined: number;
  /** Files and Helm charts a directory walk met and did not lint, by reason. */
  readonly skipped: SkippedCounts;
}

/** How many inputs a directory walk left out, by why. */
export interface SkippedCounts {
  /** Directories with a Chart.yaml: lint their rendered output instead. */
  readonly helmCharts: number;
  /** Files that do not parse and hold `{{ ... }}` template actions. */
  readonly templates: number;
  /** Files without an `apiVersion:` or `kind:` line that only their own tool parses (mkdocs.yml, CloudFormation, tsconfig.json). */
  readonly notKubernetes: number;
  /** Files a kustomization names as patches (fragments merged into objects, not objects). */
  readonly kustomizePatches: number;
  /** Files a kustomization reads as data: its generators' files and its Helm charts' values files. */
  readonly kustomizeData: number;
  /** Files found in a directory walk that git-crypt encrypted (the repository is not unlocked). */
  readonly encrypted: number;
}

/** One linted object (for JUnit, one test case each). */
export interface LintedObject {
  readonly file: string;
  readonly object: LintObjectRef;
}

/** The Kubernetes version the rules ran for, and where it was set: printed in every format. */
export interface LintTarget {
  readonly kubernetesVersion: string;
  readonly source: VersionSource;
  /** With source `input`: what in the input declares the version (`kubernetesVersion v1.29.3 (ClusterConfiguration)`). */
  readonly declaredBy?: string;
  /** With `--upgrade-to`: the version upgraded from; the findings are what becomes an error on upgrade. */
  readonly upgradeFrom?: string;
}

export interface LintResult {
  readonly findings: readonly LintFinding[];
  readonly summary: LintSummary;
  readonly target: LintTarget;
  /** The suppressions file the findings were compared with, when one was read. */
  readonly baselineFile?: string;
  readonly files: readonly string[];
  /** Every linted object; built on demand (only JUnit needs it). */
  objects(): readonly LintedObject[];
}

/** What a formatter needs besides the result. */
export interface FormatOptions {
  /** ANSI colour (only when stdout is a terminal). */
  readonly colour: boolean;
  readonly version: string;
}

export type Formatter = (result: LintResult, options: FormatOptions) => string;

export function describeRef(ref: LintObjectRef): string {
  const kind = ref.kind ?? '<no kind>';
  const name = ref.name ?? '<no name>';
  return ref.namespace ? `${kind} ${ref.namespace}/${name}` : `${kind} ${name}`;
}

import {
  ALL_RULES,
  Finding,
  KubeVersion,
  FixPlan,
  ObjectRef,
  declaredKubernetesVersion,
  fixFor,
  objectRefOf,
  parseFieldPath,
  targetVersionProblem,
  validateObjects,
  ValidationInput,
} from '../validators';
import { LintOptions, readLintOptions } from './config';
import { findingFingerprint } from './finding-fingerprint';
import {
  LoadedManifests,
  LoadedObject,
  ManifestSource,
  SkipReason,
  YAML_SYNTAX_ERROR,
  loadManifests,
} from './load-manifests';
import { FormatOptions, Formatter, LintFinding, LintObjectRef, LintResult, LintedObject } from './lint-result';
import { SourcePositions } from './source-positions';
import { readSuppressions } from './suppressions-file';
import { UsageError } from './usage-error';

export const OUTPUT_FORMATS = ['text', 'json', 'sarif', 'junit'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface LintCommandOptions {
  readonly kubeVersion?: string;
  readonly config?: string;
  /** Where `.ballast.yaml` is looked for. @default process.cwd() */
  readonly cwd?: string;
  /** Reads standard input (for `-`). @default the process's, up to the size limit */
  readonly readStdin?: () => string;
  /** The largest input read, in bytes. @default 64 MiB */
  readonly maxFileBytes?: number;
  /** Findings recorded here (`--suppress-all`) are reported as baselined and fail no run. @default none */
  readonly suppressionsFile?: string;
  /** Report only what becomes an error when the cluster moves from the target to this version. */
  readonly upgradeTo?: string;
  /** Also turn each fix into text replacements of its file (SARIF `fixes`). @default false */
  readonly withReplacements?: boolean;
  /**
   * Offer the fixes that are right only once nodes carry a label (the NFS client's), with what to do
   * before applying them: by default on errors, with `true` on warnings too; `false`
   * (`ballast fix --no-require-node-labels`) holds them all back, and such a finding says why.
   * @default undefined: on errors
   */
  readonly requireNodeLabels?: boolean;
}

/** `ballast lint`: the result and its rendering; the exit code is 1 when any unsuppressed error remains. */
export function lint(paths: readonly string[], options: LintCommandOptions): LintResult {
  const configured = readLintOptions(options.config, options.cwd, options.kubeVersion);

  const manifests = loadManifests(paths.length > 0 ? paths : ['.'], {
    ...(options.readStdin ? { readStdin: options.readStdin } : {}),
    ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}),
  });
  // With no target set, the cluster version the input itself declares (a kubeadm configuration,
  // control-plane static pods) is the one its files are applied to.
  const declared =
    configured.kubernetesVersionSource === 'default'
      ? declaredKubernetesVersion(manifests.objects.map(({ object }) => object))
      : undefined;
  const lintOptions: LintOptions = declared
    ? { ...configured, kubernetesVersion: declared.version, kubernetesVersionSource: 'input' }
    : configured;
  const inputs = validationInputs(manifests);
  const report = validateObjects(inputs, lintOptions);
  const findingsToday = [...report.findings, ...patchFindings(manifests.patches, lintOptions)];
  const upgrade =
    options.upgradeTo === undefined ? undefined : upgradeTarget(options.upgradeTo, lintOptions.kubernetesVersion);
  // On upgrade: the errors at the new version that are not errors today (rule, object and field).
  const upgraded = upgrade ? { ...lintOptions, kubernetesVersion: upgrade } : undefined;
  const reported = upgraded
    ? newErrors(findingsToday, [
        ...validateObjects(inputs, upgraded).findings,
        ...patchFindings(manifests.patches, upgraded),
      ])
    : findingsToday;

  const baseline = options.suppressionsFile === undefined ? undefined : readSuppressions(options.suppressionsFile);
  const objectsBySource = new Map<unknown, Record<string, unknown>>(
    [...manifests.objects, ...manifests.patches].map(({ object, source }) => [source, object]),
  );
  const fixVersion = upgrade ?? lintOptions.kubernetesVersion;
  // SARIF fixes need the text of each file with a fixable finding: read once per file, not per finding.
  const texts = new Map<string, string>();
  const textOf = (file: string): string => {
    let text = texts.get(file);
    if (text === undefined) texts.set(file, (text = manifests.readText(file)));
    return text;
  };
  const withFix = (finding: LintFinding, original: Finding): LintFinding => {
    const object = objectsBySource.get(original.source);
    const source = original.source as Partial<ManifestSource>;
    // An object written as text in another's field is fixed in that text by hand.
    if (source.documentIndex === undefined || source.embeddedIn) return finding;
    // Of the loader's findings in a document, only a key written twice has a line of the loader's
    // own and a fix; an inline kustomize patch that does not parse is placed by its path and fixed by hand.
    const proposed =
      original.rule === YAML_SYNTAX_ERROR
        ? original.source.line !== undefined
          ? syntaxFix(original)
          : undefined
        : object
          ? fixFor(original, object, fixVersion)
          : undefined;
    if (!proposed) return finding;
    const precondition = 'edits' in proposed ? proposed.precondition : undefined;
    const heldBack = precondition !== undefined ? nodeLabelHold(original, options) : undefined;
    const plan = heldBack !== undefined ? { unsafe: `${heldBack}: ${precondition}` } : proposed;
    const location = {
      documentIndex: source.documentIndex,
      ...(source.listItemIndex !== undefined ? { listItemIndex: source.listItemIndex } : {}),
      ...(source.listField !== undefined ? { listField: source.listField } : {}),
      ...(source.dropIn ? { dropIn: true } : {}),
    };
    const planned =
      options.withReplacements && 'edits' in plan && plan.edits.length > 0 && finding.file !== null
        ? textEdits().textReplacements(textOf(finding.file), location, plan.edits)
        : undefined;
    return {
      ...(planned && 'replacements' in planned ? { replacements: planned.replacements } : {}),
      ...finding,
      ...('edits' in plan ? { edits: plan.edits } : { noFix: plan.unsafe }),
      ...(heldBack === undefined && precondition !== undefined ? { precondition } : {}),
      ...(heldBack !== undefined ? { waitsForNodeLabels: true } : {}),
      location,
    };
  };
  const positions = new SourcePositions(manifests.readText);
  const findings = [
    ...manifests.loaderFindings.map((finding) =>
      withFix(toLintFinding(finding, finding.source.line ?? lineOf(finding, positions), baseline), finding),
    ),
    ...reported.map((finding) => withFix(toLintFinding(finding, lineOf(finding, positions), baseline), finding)),
  ];
  const fileOrder = new Map(manifests.files.map((file, i) => [file, i]));
  findings.sort(
    (a, b) =>
      (fileOrder.get(a.file ?? '') ?? -1) - (fileOrder.get(b.file ?? '') ?? -1) || (a.line ?? 0) - (b.line ?? 0),
  );

  const counted = findings.filter((f) => !f.suppressed && !f.baselined);
  const skippedFor = (reason: SkipReason) => manifests.skipped.filter((entry) => entry.reason === reason).length;
  return {
    findings,
    summary: {
      files: manifests.files.length,
      // What READMEs and scripts say is read by the rules but is no object of the input.
      objects: report.objects - manifests.facts.length,
      errors: counted.filter((f) => f.severity === 'error').length,
      warnings: counted.filter((f) => f.severity === 'warning').length,
      suppressed: findings.filter((f) => f.suppressed).length,
      baselined: findings.filter((f) => f.baselined && !f.suppressed).length,
      skipped: {
        helmCharts: skippedFor('helm-chart'),
        templates: skippedFor('template'),
        notKubernetes: skippedFor('not-kubernetes'),
        kustomizePatches: skippedFor('kustomize-patch'),
        kustomizeData: skippedFor('kustomize-data'),
        encrypted: skippedFor('encrypted'),
      },
    },
    target: upgrade
      ? {
          kubernetesVersion: upgrade.toString(),
          source: 'command line',
          upgradeFrom: lintOptions.kubernetesVersion.toString(),
        }
      : {
          kubernetesVersion: lintOptions.kubernetesVersion.toString(),
          source: lintOptions.kubernetesVersionSource,
          ...(declared ? { declaredBy: declared.declaredBy } : {}),
        },
    ...(baseline && options.suppressionsFile !== undefined ? { baselineFile: options.suppressionsFile } : {}),
    files: manifests.files,
    objects: () => lintedObjects(manifests),
  };
}

/** What the rules judge: the objects, and the patches as facts about their base (a StorageClass patch that sets the default). */
export function validationInputs(manifests: LoadedManifests): ValidationInput[] {
  return [...manifests.objects, ...manifests.facts, ...manifests.patches.map((patch) => ({ ...patch, patch: true }))];
}

/**
 * Why a fix that needs nodes labelled first is not offered, if it is not: asked not to
 * (`--no-require-node-labels`), or, unless asked to, on a warning, whose nodes may have what the
 * label stands for already (Talos and OpenShift nodes carry the NFS client).
 */
function nodeLabelHold(finding: Finding, options: LintCommandOptions): string | undefined {
  if (options.requireNodeLabels === false) return 'held back by --no-require-node-labels';
  if (options.requireNodeLabels === undefined && finding.severity !== 'error')
    return 'not applied to a warning unless asked (`ballast fix --require-node-labels`)';
  return undefined;
}

/**
 * The fix of a key its mapping writes more than once: remove every writing but the last, the value
 * older kubectl and the API server applied and the one every rule judged. Nothing else changes.
 * `kind` repeated at the top of a document is objects run together: `---` lines split them.
 */
function syntaxFix(finding: Finding): FixPlan {
  if (finding.path === 'kind') return { edits: [{ op: 'split', path: ['kind'] }] };
  return { edits: [{ op: 'keep-last', path: parseFieldPath(finding.path) }] };
}

/**
 * Text replacements for SARIF `fixes`, loaded only when asked for: they need the `yaml` package,
 * which costs about 50 ms of start-up that a plain lint run need not pay.
 */
function textEdits(): typeof import('./text-edits') {
  return require('./text-edits') as typeof import('./text-edits'); // eslint-disable-line @typescript-eslint/no-require-imports
}

/** Renders the result in a format; formatters are loaded only when used, to keep start-up small. */
export function formatResult(result: LintResult, format: OutputFormat, options: FormatOptions): string {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const formatter: Formatter =
    format === 'json'
      ? require('./formatters/json').formatJson
      : format === 'sarif'
        ? require('./formatters/sarif').formatSarif
        : format === 'junit'
          ? require('./formatters/junit').formatJunit
          : require('./formatters/text').formatText;
  return formatter(result, options);
}

function lineOf(finding: Finding, positions: SourcePositions): number | null {
  const source = finding.source as Partial<ManifestSource>;
  if (source.file === undefined || source.documentIndex === undefined) return source.line ?? null;
  try {
    return positions.lineOf({ source: source as ManifestSource, path: finding.path }) ?? null;
  } catch {
    return null; // a position is a convenience: never fail a lint run over it
  }
}

/**
 * Kinds kustomize merges as plain JSON, maps key by key: a patch's partial `evictionHard` there is
 * completed by its base, so a patch of such a kind says nothing alone.
 */
const MAP_MERGED_PATCH_KINDS = new Set(['KubeletConfiguration']);

/**
 * The findings on kustomize patch files: only the rules that judge values a patch sets whole
 * (`Rule.judgesPatches`: a flag's value list, a lock name) run on them, as a set apart from
 * the objects, so a fragment is never taken for a whole object nor its base's twin.
 */
function patchFindings(patches: readonly LoadedObject[], options: LintOptions): readonly Finding[] {
  const judged = patches.filter(
    ({ object, source }) => source.inlinePatch === undefined && !MAP_MERGED_PATCH_KINDS.has(String(object.kind)),
  );
  if (judged.length === 0) return [];
  const notOnPatches = ALL_RULES.filter((rule) => rule.judgesPatches !== true).map((rule) => rule.id);
  return validateObjects(judged, { ...options, disabledRules: [...(options.disabledRules ?? []), ...notOnPatches] })
    .findings;
}

/** `--upgrade-to X.Y`: a version the rules know, newer than the target. */
function upgradeTarget(text: string, current: KubeVersion): KubeVersion {
  const problem = targetVersionProblem(text);
  if (problem !== undefined) throw new UsageError(`--upgrade-to: ${problem}`);
  const next = KubeVersion.target(text);
  if (!next.atLeast(current.nextMinor())) {
    throw new UsageError(
      `--upgrade-to ${text} is not newer than the target ${current.toString()}: set the current version with --kube-version`,
    );
  }
  return next;
}

/** The unsuppressed errors of `after` that `before` does not have as errors (same rule, object and field). */
function newErrors(before: readonly Finding[], after: readonly Finding[]): Finding[] {
  const key = (f: Finding) =>
    [f.rule, f.object.apiVersion, f.object.kind, f.object.namespace, f.object.name, f.path].join('\u0000');
  const errorsBefore = new Set(before.filter((f) => f.severity === 'error' && !f.suppressed).map(key));
  return after.filter((f) => f.severity === 'error' && !f.suppressed && !errorsBefore.has(key(f)));
}

function toLintFinding(finding: Finding, line: number | null, baseline: ReadonlySet<string> | undefined): LintFinding {
  const fingerprint = findingFingerprint({
    rule: finding.rule,
    object: toLintRef(finding.object),
    path: finding.path,
    file: finding.source.file ?? null,
  });
  return {
    rule: finding.rule,
    severity: finding.severity,
    message: finding.message,
    fix: finding.fix,
    file: finding.source.file ?? null,
    line,
    object: toLintRef(finding.object),
    path: finding.path,
    suppressed: finding.suppressed,
    fingerprint,
    baselined: baseline?.has(fingerprint) === true,
    edits: [],
    ...(finding.justification !== undefined ? { justification: finding.justification } : {}),
  };
}

function toLintRef(ref: ObjectRef): LintObjectRef {
  return {
    apiVersion: ref.apiVersion ?? null,
    kind: ref.kind ?? null,
    namespace: ref.namespace ?? null,
    name: ref.name ?? null,
  };
}

function lintedObjects(manifests: LoadedManifests): LintedObject[] {
  return manifests.objects.map(({ object, source }) => ({ file: source.file, object: toLintRef(objectRefOf(object)) }));
}

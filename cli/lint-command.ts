import { Finding, ObjectRef, validateObjects } from '../validators';
import { readLintOptions } from './config';
import { LoadedManifests, ManifestSource, loadManifests } from './load-manifests';
import { FormatOptions, Formatter, LintFinding, LintObjectRef, LintResult, LintedObject } from './lint-result';
import { SourcePositions } from './source-positions';

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
}

/** `ballast lint`: the result and its rendering; the exit code is 1 when any unsuppressed error remains. */
export async function lint(paths: readonly string[], options: LintCommandOptions): Promise<LintResult> {
  const lintOptions = readLintOptions(options.config, options.cwd, options.kubeVersion);

  const manifests = loadManifests(paths.length > 0 ? paths : ['.'], {
    ...(options.readStdin ? { readStdin: options.readStdin } : {}),
    ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}),
  });
  const report = validateObjects(manifests.objects, lintOptions);

  const positions = new SourcePositions(manifests.readText);
  const findings = [
    ...manifests.loaderFindings.map((finding) => toLintFinding(finding, finding.source.line ?? null)),
    ...report.findings.map((finding) => toLintFinding(finding, lineOf(finding, positions))),
  ];
  const fileOrder = new Map(manifests.files.map((file, i) => [file, i]));
  findings.sort(
    (a, b) =>
      (fileOrder.get(a.file ?? '') ?? -1) - (fileOrder.get(b.file ?? '') ?? -1) || (a.line ?? 0) - (b.line ?? 0),
  );

  const errors = findings.filter((f) => !f.suppressed && f.severity === 'error').length;
  return {
    findings,
    summary: {
      files: manifests.files.length,
      objects: report.objects,
      errors,
      warnings: findings.filter((f) => !f.suppressed && f.severity === 'warning').length,
      suppressed: findings.filter((f) => f.suppressed).length,
    },
    target: {
      kubernetesVersion: lintOptions.kubernetesVersion.toString(),
      source: lintOptions.kubernetesVersionSource,
    },
    files: manifests.files,
    objects: () => lintedObjects(manifests),
  };
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

function toLintFinding(finding: Finding, line: number | null): LintFinding {
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
  return manifests.objects.map(({ object, source }) => {
    const metadata = object.metadata as Record<string, unknown> | null | undefined;
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    const isMetadata = typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata);
    return {
      file: source.file,
      object: {
        apiVersion: text(object.apiVersion),
        kind: text(object.kind),
        namespace: isMetadata ? text(metadata.namespace) : null,
        name: isMetadata ? text(metadata.name) : null,
      },
    };
  });
}

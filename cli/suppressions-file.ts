import * as fs from 'fs';
import { describeRef, type LintFinding } from './lint-result';
import { UsageError } from './usage-error';

/** Where `--suppress-all` records today's findings, ESLint's bulk-suppressions way. */
export const DEFAULT_SUPPRESSIONS_FILE = 'ballast-suppressions.json';

interface SuppressionsFile {
  readonly version: 1;
  readonly suppressions: ReadonlyArray<{
    fingerprint: string;
    rule: string;
    object: string;
    path: string;
    file: string | null;
  }>;
}

/** The fingerprints recorded in `file`, or undefined when it does not exist. */
export function readSuppressions(file: string): ReadonlySet<string> | undefined {
  if (!fs.existsSync(file)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(
      `suppressions file ${file} is not valid JSON (${(error as Error).message}): fix it, or delete it and run --suppress-all again`,
    );
  }
  const entries = (data as Partial<SuppressionsFile> | null)?.suppressions;
  if (!Array.isArray(entries) || !entries.every((entry) => typeof entry?.fingerprint === 'string')) {
    throw new UsageError(
      `suppressions file ${file} has no "suppressions" list of {fingerprint, ...}: delete it and run --suppress-all again`,
    );
  }
  return new Set(entries.map((entry) => entry.fingerprint));
}

/** Records `findings` (sorted, one entry per fingerprint) so later runs do not fail on them. */
export function writeSuppressions(file: string, findings: readonly LintFinding[]): number {
  const byFingerprint = new Map<string, SuppressionsFile['suppressions'][number]>();
  for (const finding of findings) {
    byFingerprint.set(finding.fingerprint, {
      fingerprint: finding.fingerprint,
      rule: finding.rule,
      object: describeRef(finding.object),
      path: finding.path,
      file: finding.file,
    });
  }
  const suppressions = [...byFingerprint.values()].sort((a, b) =>
    `${a.file ?? ''}\u0000${a.rule}\u0000${a.fingerprint}` < `${b.file ?? ''}\u0000${b.rule}\u0000${b.fingerprint}`
      ? -1
      : 1,
  );
  const content: SuppressionsFile = { version: 1, suppressions };
  fs.writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
  return suppressions.length;
}

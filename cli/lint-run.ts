import * as path from 'path';
import type { CliIo } from './cli-io';
import { formatResult, lint, OutputFormat } from './lint-command';
import type { LintResult } from './lint-result';
import { DEFAULT_SUPPRESSIONS_FILE, writeSuppressions } from './suppressions-file';
import { UsageError } from './usage-error';

/** When `ballast lint` exits 1: on an error (default), on a warning too, or never (for an upload step). */
export const FAIL_ON = ['error', 'warning', 'never'] as const;
export type FailOn = (typeof FAIL_ON)[number];

/** The flags of `ballast lint`, as commander hands them over. */
export interface LintFlags {
  readonly format: string;
  readonly kubeVersion?: string;
  readonly config?: string;
  readonly maxFileSize?: string;
  readonly failOn?: string;
  readonly upgradeTo?: string;
  readonly suppressAll?: boolean;
  readonly pruneSuppressions?: boolean;
  readonly suppressionsFile?: string;
}

/**
 * Runs `ballast lint` for the command line and returns the exit code: 0 nothing at or above
 * `--fail-on` (suppressed and baselined findings do not count), 1 something is, 2 a usage or tool
 * problem (printed as one line, never a stack trace).
 */
export function runLint(paths: readonly string[], flags: LintFlags, io: CliIo, version: string): number {
  try {
    const failOn = parseFailOn(flags.failOn);
    if (flags.suppressAll && flags.pruneSuppressions)
      throw new UsageError('--suppress-all and --prune-suppressions: use one at a time');
    if ((flags.suppressAll || flags.pruneSuppressions) && flags.upgradeTo !== undefined) {
      throw new UsageError('--upgrade-to reports a future version: it cannot record suppressions');
    }
    const suppressionsFile = flags.suppressionsFile ?? path.join(process.cwd(), DEFAULT_SUPPRESSIONS_FILE);
    const result = lint(paths, {
      kubeVersion: flags.kubeVersion,
      config: flags.config,
      ...(io.readStdin ? { readStdin: io.readStdin } : {}),
      ...(flags.maxFileSize !== undefined ? { maxFileBytes: mebibytes(flags.maxFileSize) } : {}),
      ...(flags.suppressAll ? {} : { suppressionsFile }),
      ...(flags.upgradeTo !== undefined ? { upgradeTo: flags.upgradeTo } : {}),
      withReplacements: flags.format === 'sarif',
    });
    if (flags.suppressAll) {
      const count = writeSuppressions(
        suppressionsFile,
        result.findings.filter((f) => !f.suppressed),
      );
      io.err(
        `ballast lint: recorded ${count} finding(s) in ${suppressionsFile}; later runs report them as baselined and do not fail on them\n`,
      );
      return 0;
    }
    if (flags.pruneSuppressions) {
      const count = writeSuppressions(
        suppressionsFile,
        result.findings.filter((f) => f.baselined && !f.suppressed),
      );
      io.err(
        `ballast lint: ${count} suppression(s) still match a finding; the others were removed from ${suppressionsFile}\n`,
      );
    }
    io.out(
      formatResult(result, flags.format as OutputFormat, {
        colour: io.colour === true && flags.format === 'text',
        version,
      }),
    );
    return fails(result, failOn) ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`ballast lint: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

function fails(result: LintResult, failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  return result.summary.errors > 0 || (failOn === 'warning' && result.summary.warnings > 0);
}

function parseFailOn(text: string | undefined): FailOn {
  const value = text ?? 'error';
  if (!(FAIL_ON as readonly string[]).includes(value))
    throw new UsageError(`--fail-on takes ${FAIL_ON.join(', ')}; got "${value}"`);
  return value as FailOn;
}

/** `--max-file-size` in MiB, a positive number. */
function mebibytes(text: string): number {
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !(value > 0)) {
    throw new UsageError(`--max-file-size takes a size in MiB greater than 0, such as 64; got "${text}"`);
  }
  return Math.floor(value * 1024 * 1024);
}

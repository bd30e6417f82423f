import { formatResult, lint, OutputFormat } from './lint-command';
import { UsageError } from './load-manifests';
import type { CliIo } from './cli-io';

/**
 * Runs `ballast lint` for the command line and returns the exit code: 0 no unsuppressed error,
 * 1 errors found, 2 a usage or tool problem (printed as one line, never a stack trace).
 */
export async function runLint(
  paths: readonly string[],
  options: { format: string; kubeVersion?: string; config?: string; maxFileSize?: string },
  io: CliIo,
  version: string,
): Promise<number> {
  try {
    const result = await lint(paths, {
      kubeVersion: options.kubeVersion,
      config: options.config,
      ...(io.readStdin ? { readStdin: io.readStdin } : {}),
      ...(options.maxFileSize !== undefined ? { maxFileBytes: mebibytes(options.maxFileSize) } : {}),
    });
    io.out(
      formatResult(result, options.format as OutputFormat, {
        colour: io.colour === true && options.format === 'text',
        version,
      }),
    );
    return result.summary.errors > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`ballast lint: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

/** `--max-file-size` in MiB, a positive number. */
function mebibytes(text: string): number {
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !(value > 0)) {
    throw new UsageError(`--max-file-size takes a size in MiB greater than 0, such as 64; got "${text}"`);
  }
  return Math.floor(value * 1024 * 1024);
}

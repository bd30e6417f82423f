import { formatResult, lint, OutputFormat } from './lint-command';
import { ReaderError } from './file-reader';
import { UsageError } from './load-manifests';
import type { CliIo } from './cli-io';

/**
 * Runs `ballast lint` for the command line and returns the exit code: 0 no unsuppressed error,
 * 1 errors found, 2 a usage or tool problem (printed as one line, never a stack trace).
 */
export async function runLint(
  paths: readonly string[],
  options: { format: string; kubeVersion?: string; config?: string },
  io: CliIo,
  version: string,
): Promise<number> {
  try {
    const result = await lint(paths, {
      kubeVersion: options.kubeVersion,
      config: options.config,
      readStdin: io.readStdin,
    });
    io.out(
      formatResult(result, options.format as OutputFormat, {
        colour: io.colour === true && options.format === 'text',
        version,
      }),
    );
    return result.summary.errors > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ReaderError) {
      io.err(`ballast lint: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

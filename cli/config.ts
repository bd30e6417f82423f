import * as fs from 'fs';
import * as path from 'path';
import { load as loadYaml } from 'js-yaml';
import { BallastOptionsError, ResolvedOptions, resolveOptions } from '../validators';
import { UsageError } from './load-manifests';

/** The file `ballast lint` reads from the current directory when `--config` is not given. */
export const DEFAULT_CONFIG_FILE = '.ballast.yaml';

/** The options of one `ballast lint` run, and the config file they came from. */
export interface LintOptions extends ResolvedOptions {
  readonly configFile?: string;
}

/**
 * Reads `explicitFile`, else `.ballast.yaml` in `cwd` if it exists, and resolves it with the one
 * ballast options schema (the same keys and messages as the gate, the cdk8s plugin and the
 * policy pack): `--kube-version` beats `BALLAST_KUBERNETES_VERSION`, which beats the file.
 * Every mistake is a usage error listing all problems: a typo must not silently switch nothing off.
 */
export function readLintOptions(
  explicitFile: string | undefined,
  cwd: string = process.cwd(),
  commandLineVersion?: string,
): LintOptions {
  const file = explicitFile ?? path.join(cwd, DEFAULT_CONFIG_FILE);
  const exists = explicitFile !== undefined || fs.existsSync(file);
  const data = exists ? readYaml(file) : {};
  try {
    return {
      ...resolveOptions(data, { where: exists ? file : 'the command line', commandLineVersion }),
      ...(exists ? { configFile: file } : {}),
    };
  } catch (error) {
    if (error instanceof BallastOptionsError) throw new UsageError(error.message);
    throw error;
  }
}

function readYaml(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `config file not found: ${file}`
        : `config file ${file} cannot be read: ${(error as Error).message}`,
    );
  }
  try {
    return loadYaml(text, { filename: file }) ?? {};
  } catch (error) {
    throw new UsageError(
      `config file ${file} is not valid YAML: ${(error as { reason?: string }).reason ?? String(error)}`,
    );
  }
}

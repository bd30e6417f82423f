import * as fs from 'fs';
import * as path from 'path';
import { load as loadYaml } from 'js-yaml';
import { ALL_RULES, Severity, ValidationOptions, isRecord } from '../validators';
import { UsageError } from './load-manifests';

/** The file `ballast lint` reads from the current directory when `--config` is not given. */
export const DEFAULT_CONFIG_FILE = '.ballast.yaml';

/**
 * `.ballast.yaml`:
 *
 * ```yaml
 * kubernetesVersion: "1.30"
 * rules:
 *   recycle-reclaim-policy: off        # off | on | error | warning
 *   persistent-volume-with-namespace: warning
 * prerequisiteLabelKeys:
 *   - node.example.com/nfs-client
 * ```
 *
 * Mistakes (unknown keys, unknown rule ids, bad values) are usage errors: a typo must not
 * silently switch nothing off.
 */
export interface LintConfig {
  readonly file?: string;
  readonly kubernetesVersion?: string;
  readonly options: Pick<ValidationOptions, 'disabledRules' | 'severityOverrides' | 'settings'>;
}

const KNOWN_KEYS = new Set(['kubernetesVersion', 'rules', 'prerequisiteLabelKeys']);

/** Reads `explicitFile`, else `.ballast.yaml` in `cwd` if it exists, else the defaults. */
export function readConfig(explicitFile: string | undefined, cwd: string = process.cwd()): LintConfig {
  const file = explicitFile ?? path.join(cwd, DEFAULT_CONFIG_FILE);
  if (explicitFile === undefined && !fs.existsSync(file)) return { options: {} };
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`config file not found or not readable: ${file}`);
  }
  let data: unknown;
  try {
    data = loadYaml(text, { filename: file });
  } catch (error) {
    throw new UsageError(`config file ${file} is not valid YAML: ${(error as { reason?: string }).reason ?? String(error)}`);
  }
  return parseConfig(data ?? {}, file);
}

export function parseConfig(data: unknown, file: string): LintConfig {
  const fail = (problem: string) => new UsageError(`config file ${file}: ${problem}`);
  if (!isRecord(data)) throw fail('must be a mapping with `kubernetesVersion`, `rules` and `prerequisiteLabelKeys`');
  const unknownKeys = Object.keys(data).filter((key) => !KNOWN_KEYS.has(key));
  if (unknownKeys.length > 0) throw fail(`unknown key(s) ${unknownKeys.join(', ')}; known: ${[...KNOWN_KEYS].join(', ')}`);

  let kubernetesVersion: string | undefined;
  if (data.kubernetesVersion !== undefined) {
    // `1.30` unquoted is the number 1.3 in YAML: ask for a string rather than guess.
    if (typeof data.kubernetesVersion !== 'string' || !/^\d+\.\d+$/.test(data.kubernetesVersion)) {
      throw fail(`kubernetesVersion must be a quoted "MAJOR.MINOR" string such as "1.30", got ${String(data.kubernetesVersion)}`);
    }
    kubernetesVersion = data.kubernetesVersion;
  }

  const known = new Set(ALL_RULES.map((rule) => rule.id));
  const disabledRules: string[] = [];
  const severityOverrides: Record<string, Severity> = {};
  if (data.rules !== undefined) {
    if (!isRecord(data.rules)) throw fail('`rules` must map rule ids to off, on, error or warning');
    for (const [id, value] of Object.entries(data.rules)) {
      if (!known.has(id)) throw fail(`unknown rule "${id}" under \`rules\`; run \`ballast rules\` for the list`);
      // YAML 1.1 readers turn a bare `off` into false; accept both spellings.
      if (value === 'off' || value === false) disabledRules.push(id);
      else if (value === 'error' || value === 'warning') severityOverrides[id] = value;
      else if (value !== 'on' && value !== true) throw fail(`rule "${id}": expected off, on, error or warning, got ${String(value)}`);
    }
  }

  let prerequisiteLabelKeys: string[] | undefined;
  if (data.prerequisiteLabelKeys !== undefined) {
    const keys = data.prerequisiteLabelKeys;
    if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string' && key !== '')) {
      throw fail('`prerequisiteLabelKeys` must be a list of node label keys');
    }
    prerequisiteLabelKeys = keys;
  }

  return {
    file,
    kubernetesVersion,
    options: {
      disabledRules,
      severityOverrides,
      ...(prerequisiteLabelKeys ? { settings: { prerequisiteLabelKeys } } : {}),
    },
  };
}

import * as fs from 'fs';
import * as path from 'path';
import { run } from '../../cli/program';
import { scratchDir } from '../support/scratch-dir';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `ballast ARGV` in-process with captured output and `stdin` as standard input. */
export async function ballast(argv: readonly string[], stdin = ''): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
    readStdin: () => stdin,
  });
  return { code, stdout, stderr };
}

/** `ballast lint --format json ARGS`, parsed (throws when stdout is not exactly one JSON value). */
export async function lintJson(args: readonly string[], stdin = ''): Promise<CliRun & { json: LintJson }> {
  const result = await ballast(['lint', '--format', 'json', ...args], stdin);
  return { ...result, json: JSON.parse(result.stdout) as LintJson };
}

export interface LintJson {
  findings: Array<{
    rule: string;
    severity: 'error' | 'warning';
    message: string;
    fix: string;
    file: string | null;
    line: number | null;
    object: { apiVersion: string | null; kind: string | null; namespace: string | null; name: string | null };
    path: string;
    suppressed: boolean;
    baselined: boolean;
    fingerprint: string;
    edits: Array<{ op: 'set' | 'delete'; path: Array<string | number>; value?: unknown }>;
    precondition?: string;
  }>;
  summary: { files: number; objects: number; errors: number; warnings: number; suppressed: number; baselined: number };
  target: { kubernetesVersion: string; source: string };
}

/** A fresh temporary directory with `files` (relative path -> content), removed by `cleanup`. */
export function tempTree(files: Record<string, string | Buffer>): { dir: string; cleanup: () => void } {
  const dir = scratchDir('ballast-lint');
  for (const [name, content] of Object.entries(files)) {
    const full = path.join(dir, name);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

import * as fs from 'fs';
import * as path from 'path';
import { UsageError } from './usage-error';

/** How `-` (standard input) is named in findings. */
export const STDIN_NAME = '<stdin>';

/** One input to read: a file on disk or standard input. */
export type InputFile =
  | { readonly kind: 'file'; readonly name: string; readonly fsPath: string | Buffer; readonly discovered: boolean }
  | { readonly kind: 'stdin'; readonly name: typeof STDIN_NAME }
  /** A directory that cannot be listed: reported, not skipped in silence. */
  | { readonly kind: 'unlistable'; readonly name: string; readonly reason: string }
  /** A Helm chart met in a directory walk: its templates are not manifests until rendered. */
  | { readonly kind: 'helm-chart'; readonly name: string };

/** What a directory walk picks up: manifests and `.conf` files (systemd or kubelet drop-ins). */
const WALKED_FILE = /\.(ya?ml|json|conf)$/i;
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git']);
/** The file that makes a directory a Helm chart. */
const HELM_CHART_FILE = 'Chart.yaml';

/**
 * The files behind the paths given, in one order whatever the order of the arguments or of the
 * directory listing: sorted by path, standard input last, each file once. Directories are walked
 * recursively without following symbolic links inside them; names that are not valid UTF-8 are
 * kept as bytes for reading (and shown with the invalid bytes replaced).
 * @throws UsageError for a path that does not exist, or `-` given twice
 */
export function inputFiles(paths: readonly string[]): InputFile[] {
  const files = new Map<string, InputFile>();
  let stdin = false;
  for (const given of paths) {
    if (given === '-') {
      if (stdin) throw new UsageError('`-` (standard input) given twice: it can be read only once');
      stdin = true;
      continue;
    }
    let stats: fs.Stats;
    try {
      stats = fs.statSync(given);
    } catch (error) {
      throw new UsageError(
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? `path not found: ${given}`
          : `cannot read ${given}: ${describeError(error)}`,
      );
    }
    if (stats.isDirectory()) walk(given, files);
    else add(files, { kind: 'file', name: given, fsPath: given, discovered: false });
  }
  const sorted = [...files.values()].sort((a, b) => compareNames(a.name, b.name));
  return stdin ? [...sorted, { kind: 'stdin', name: STDIN_NAME }] : sorted;
}

function walk(directory: string | Buffer, files: Map<string, InputFile>): void {
  const name = displayName(directory);
  let entries: fs.Dirent<Buffer>[];
  try {
    entries = fs.readdirSync(directory, { withFileTypes: true, encoding: 'buffer' });
  } catch (error) {
    add(files, { kind: 'unlistable', name, reason: describeError(error) });
    return;
  }
  if (entries.some((entry) => entry.isFile() && entry.name.toString('utf8') === HELM_CHART_FILE)) {
    // Chart.yaml, values.yaml and templates/ hold Go templates and their inputs, not objects:
    // what a chart deploys is its rendered output (`helm template`), reported as skipped.
    add(files, { kind: 'helm-chart', name });
    return;
  }
  for (const entry of entries) {
    const entryName = entry.name.toString('utf8');
    const full = joinPath(directory, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entryName)) walk(full, files);
    } else if (entry.isFile() && WALKED_FILE.test(entryName)) {
      add(files, { kind: 'file', name: displayName(full), fsPath: full, discovered: true });
    }
  }
}

function add(files: Map<string, InputFile>, file: InputFile): void {
  const key =
    file.kind === 'file' && typeof file.fsPath !== 'string'
      ? `bytes:${file.fsPath.toString('hex')}`
      : `name:${path.resolve(file.name)}`;
  if (!files.has(key)) files.set(key, file);
}

/** A path with a name that may not be valid UTF-8: bytes when it is not, so it can still be opened. */
function joinPath(directory: string | Buffer, entry: Buffer): string | Buffer {
  const joined = Buffer.concat([Buffer.from(directory), Buffer.from(path.sep), entry]);
  const text = joined.toString('utf8');
  return Buffer.from(text, 'utf8').equals(joined) ? text : joined;
}

function displayName(fsPath: string | Buffer): string {
  return typeof fsPath === 'string' ? fsPath : fsPath.toString('utf8');
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An errno error as a person reads it: what happened, not only the code. */
export function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOENT':
      return 'it no longer exists (removed while linting?)';
    case 'EISDIR':
      return 'it is a directory';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    case 'EMFILE':
    case 'ENFILE':
      return 'too many open files';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

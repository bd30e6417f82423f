import * as fs from 'fs';
import * as path from 'path';
import { GO_MODULE_FILE } from '../validators/go-module';
import { isProjectReadmeName } from '../validators/project-readme';
import { isShellScriptName } from '../validators/node-package-installs';
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

/**
 * What a directory walk picks up: manifests, `.conf` files (systemd or kubelet drop-ins), Go
 * module files (go-module.ts: the controller-runtime version a controller in the tree is built with)
 * READMEs (project-readme.ts: the cluster the project says it deploys to) and node-preparation shell
 * scripts (node-package-installs.ts: the node prerequisites they install).
 */
const WALKED_FILE = /\.(ya?ml|json|conf)$/i;
/**
 * Directories no cluster's objects live in: dependencies, git's own, and the `__MACOSX` folder a
 * zip made on macOS leaves beside its content when unpacked elsewhere (resource forks, binary).
 */
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', '__MACOSX']);
/** An AppleDouble file (`._deployment.yaml`): macOS metadata of the file it names, binary, never YAML. */
const APPLE_DOUBLE = /^\._/;
/** The file that makes a directory a Helm chart. */
const HELM_CHART_FILE = 'Chart.yaml';
/**
 * What of a chart's directory Helm itself reads: its metadata, dependencies and default values,
 * and the templates it renders (`templates/`, and `charts/`, its subcharts). These are Go templates
 * and their inputs, not objects. Whatever else the directory holds is read as in any directory: a
 * repository whose root is a chart keeps plain manifests beside it, or the chart's rendered
 * output (`helm template > rendered.yaml`), and `crds/` holds plain CustomResourceDefinitions.
 */
const HELM_CHART_ENTRIES = new Set([
  HELM_CHART_FILE,
  'Chart.lock',
  'requirements.yaml',
  'requirements.lock',
  'values.yaml',
  'values.schema.json',
  'templates',
  'charts',
]);
/** What Node puts in a name for bytes that are not UTF-8. */
const REPLACEMENT_CHARACTER = '\uFFFD';

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
    const resolved = path.resolve(given);
    if (stats.isDirectory()) walk(given, resolved, files);
    else add(files, resolved, { kind: 'file', name: given, fsPath: given, discovered: false });
  }
  const sorted = [...files.values()].sort((a, b) => compareNames(a.name, b.name));
  return stdin ? [...sorted, { kind: 'stdin', name: STDIN_NAME }] : sorted;
}

/** `resolved` is the absolute form of `directory`, built up along the walk: resolving each file's path costs more than reading it. */
function walk(directory: string | Buffer, resolved: string, files: Map<string, InputFile>): void {
  const name = displayName(directory);
  let entries: fs.Dirent[] | fs.Dirent<Buffer>[];
  try {
    // Names are read as strings, which costs a fraction of byte buffers on a tree of thousands of
    // files; a listing with a name that is not valid UTF-8 (decoded with U+FFFD) is read again as
    // bytes, so that file can still be opened.
    entries = fs.readdirSync(directory, { withFileTypes: true });
    if (entries.some((entry) => entry.name.includes(REPLACEMENT_CHARACTER)))
      entries = fs.readdirSync(directory, { withFileTypes: true, encoding: 'buffer' });
  } catch (error) {
    add(files, resolved, { kind: 'unlistable', name, reason: describeError(error) });
    return;
  }
  // What a chart deploys is its rendered output (`helm template`): the chart is reported as skipped.
  const chart = entries.some((entry) => entry.isFile() && entry.name.toString() === HELM_CHART_FILE);
  if (chart) add(files, resolved, { kind: 'helm-chart', name });
  for (const entry of entries) {
    const entryName = entry.name.toString();
    if (chart && HELM_CHART_ENTRIES.has(entryName)) continue;
    const full =
      typeof entry.name === 'string' && typeof directory === 'string'
        ? directory + path.sep + entry.name
        : joinPath(directory, entry.name);
    const resolvedEntry = resolved.endsWith(path.sep) ? resolved + entryName : resolved + path.sep + entryName;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entryName)) walk(full, resolvedEntry, files);
    } else if (entry.isFile() && isWalkedFileName(entryName)) {
      add(files, resolvedEntry, { kind: 'file', name: displayName(full), fsPath: full, discovered: true });
    }
  }
}

/** Whether a directory walk reads a file of this name (not a path: a name). */
export function isWalkedFileName(name: string): boolean {
  if (APPLE_DOUBLE.test(name)) return false;
  return WALKED_FILE.test(name) || name === GO_MODULE_FILE || isProjectReadmeName(name) || isShellScriptName(name);
}

/** Adds an input once, by its absolute path (its bytes for a name that is not UTF-8). */
function add(files: Map<string, InputFile>, resolved: string, file: InputFile): void {
  const key =
    file.kind === 'file' && typeof file.fsPath !== 'string'
      ? `bytes:${file.fsPath.toString('hex')}`
      : `name:${resolved}`;
  if (!files.has(key)) files.set(key, file);
}

/** A path with a name that may not be valid UTF-8: bytes when it is not, so it can still be opened. */
function joinPath(directory: string | Buffer, entry: string | Buffer): string | Buffer {
  const joined = Buffer.concat([Buffer.from(directory), Buffer.from(path.sep), Buffer.from(entry)]);
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

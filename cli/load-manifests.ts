import * as fs from 'fs';
import { loadAll as loadYamlDocuments, YAMLException } from 'js-yaml';
import { Finding, ObjectSource } from '../validators/finding';
import { listedObjects } from '../validators/list-items';
import { parseSystemdDropIn } from '../validators/systemd-drop-in';
import { KUBERNETES_YAML_SCHEMA } from '../validators/yaml-schema';
import { WalkPatterns, readFiles } from './file-reader';

/** The rule id of findings the loader itself produces (a file that is not valid YAML). */
export const YAML_SYNTAX_ERROR = 'yaml-syntax-error';

/** How `-` (standard input) is named in findings. */
export const STDIN_NAME = '<stdin>';

/** Where one object came from: the engine keeps this object as the finding's `source`. */
export interface ManifestSource extends ObjectSource {
  readonly file: string;
  /** Index of the YAML document in the file (js-yaml's order). */
  readonly documentIndex: number;
  /** Index in `items` when the object came out of a `v1 List`. */
  readonly listItemIndex?: number;
  /** The object parsed from a systemd drop-in (not YAML): its entries carry their own `line`. */
  readonly dropIn?: Record<string, unknown>;
}

export interface LoadedObject {
  readonly object: Record<string, unknown>;
  readonly source: ManifestSource;
}

export interface LoadedManifests {
  readonly objects: LoadedObject[];
  /** Every file read, in order (stdin as `<stdin>`). */
  readonly files: string[];
  /** yaml-syntax-error findings. */
  readonly loaderFindings: Finding[];
  /** The text of a file, for locating findings: stdin is kept, files are read again. */
  readonly readText: (file: string) => string;
}

/** A user mistake (missing path): the CLI prints the message and exits 2. */
export class UsageError extends Error {}

const MANIFEST_EXTENSIONS = /\.(ya?ml|json)$/i;
const DROP_IN_EXTENSION = /\.conf$/i;
/** What a directory walk picks up: manifests, and `.conf` files, kept when they hold a `[Service]` section. */
const WALK_PATTERNS: WalkPatterns = {
  manifest: MANIFEST_EXTENSIONS.source,
  dropIn: DROP_IN_EXTENSION.source,
  skippedDirectories: ['node_modules', '.git'],
};

/** What one file yields: its objects and the loader's own findings (syntax errors, binary files). */
interface FileLoad {
  /** The file as findings name it (`<stdin>` for `-`). */
  readonly name: string;
  readonly objects: LoadedObject[];
  readonly findings: Finding[];
}

/**
 * Reads and parses every file under `paths`: directories recursively (`.yaml`, `.yml`, `.json`,
 * and `.conf` files holding a `[Service]` section), files as given, `-` for stdin
 * (`readStdin` is called once). Files are parsed as the reader delivers them.
 */
export async function loadManifests(paths: readonly string[], readStdin: () => string): Promise<LoadedManifests> {
  for (const given of paths) {
    if (given !== '-' && !statOrUndefined(given)) throw new UsageError(`path not found: ${given}`);
  }
  let stdinText: string | undefined;
  const loads: FileLoad[] = [];
  for await (const batch of readFiles(paths, WALK_PATTERNS)) {
    for (const file of batch) {
      if (file.path === '-') loads.push(loadText(STDIN_NAME, stdinText ??= readStdin()));
      else if (file.unreadableDirectory) loads.push(unreadableDirectory(file.path));
      else if (file.documents) loads.push(loadDocuments(file.path, file.documents));
      else if (!file.discovered || !DROP_IN_EXTENSION.test(file.path) || isServiceDropIn(file.text)) loads.push(loadContent(file.path, file.text));
    }
  }
  return assembleManifests(loads, stdinText);
}

/** Joins per-file results, in file order, into what the lint command validates. */
function assembleManifests(loads: readonly FileLoad[], stdinText: string | undefined): LoadedManifests {
  const objects: LoadedObject[] = [];
  const loaderFindings: Finding[] = [];
  for (const load of loads) {
    for (const object of load.objects) objects.push(object);
    for (const finding of load.findings) loaderFindings.push(finding);
  }
  return {
    objects,
    files: loads.map((load) => load.name),
    loaderFindings,
    readText: (file) => (file === STDIN_NAME ? stdinText ?? '' : fs.readFileSync(file, 'utf8')),
  };
}

function unreadableDirectory(dir: string): FileLoad {
  return { name: dir, objects: [], findings: [loaderFinding(dir, 1, 'the directory cannot be listed (permission denied or removed while linting), so nothing in it was checked', 'Make the directory readable or leave it out of the paths.')] };
}

/** Parses one file's content as read from disk (undefined: it could not be read). */
function loadContent(file: string, content: string | undefined): FileLoad {
  if (content === undefined) {
    return { name: file, objects: [], findings: [loaderFinding(file, 1, 'the file cannot be read (permission denied or removed while linting)', 'Make the file readable or leave it out of the paths.')] };
  }
  if (looksBinary(content)) {
    return { name: file, objects: [], findings: [loaderFinding(file, 1, 'the file is binary, not YAML, JSON or a systemd drop-in', 'Leave binary files out of the paths given to `ballast lint`.')] };
  }
  return loadText(file, content);
}

/** Parses one file's text: a systemd drop-in or a YAML/JSON stream. */
function loadText(name: string, text: string): FileLoad {
  const load: FileLoad = { name, objects: [], findings: [] };
  if (DROP_IN_EXTENSION.test(name) && SERVICE_SECTION.test(text)) {
    loadDropIn(text, name, load.objects, load.findings);
  } else {
    loadYaml(text, name, load.objects, load.findings);
  }
  return load;
}

function loadYaml(text: string, file: string, objects: LoadedObject[], findings: Finding[]): void {
  let documents: unknown[];
  try {
    documents = loadYamlDocuments(text, undefined, { filename: file, schema: KUBERNETES_YAML_SCHEMA });
  } catch (error) {
    findings.push(syntaxFinding(file, error, 0));
    documents = salvageDocuments(text, file, findings);
  }
  documents.forEach((document, documentIndex) => addDocument(document, file, documentIndex, objects));
}

/** A file the reader thread has parsed already (with the same js-yaml and schema). */
function loadDocuments(file: string, documents: readonly unknown[]): FileLoad {
  const load: FileLoad = { name: file, objects: [], findings: [] };
  documents.forEach((document, documentIndex) => addDocument(document, file, documentIndex, load.objects));
  return load;
}

/**
 * A file with a syntax error in one document still has its other documents checked: the file is
 * split at `---` lines (which YAML never allows inside a document) and each part parsed alone.
 * Document indices stay those of the split, which is what the position finder uses too.
 */
function salvageDocuments(text: string, file: string, findings: Finding[]): unknown[] {
  const documents: unknown[] = [];
  const parts = splitDocuments(text);
  if (parts.length < 2) return documents;
  for (const part of parts) {
    try {
      const parsed = loadYamlDocuments(part.text, undefined, { filename: file, schema: KUBERNETES_YAML_SCHEMA });
      documents.push(parsed.length === 1 ? parsed[0] : undefined);
    } catch (error) {
      // The whole-file error already names the first broken document; report later ones too.
      const finding = syntaxFinding(file, error, part.firstLine - 1);
      if (!findings.some((f) => f.source.file === file && f.source.line === finding.source.line)) findings.push(finding);
      documents.push(undefined);
    }
  }
  return documents;
}

/** The documents of a YAML stream by its `---` lines; text before the first marker counts only if it has content. */
export function splitDocuments(text: string): Array<{ text: string; firstLine: number }> {
  const lines = text.split(/\r?\n/);
  return documentRanges(lines).map(({ first, end }) => ({ text: lines.slice(first, end).join('\n'), firstLine: first + 1 }));
}

/** The 0-based [first, end) line ranges of the documents, in the order js-yaml returns them. */
export function documentRanges(lines: readonly string[]): Array<{ first: number; end: number }> {
  const ranges: Array<{ first: number; end: number }> = [];
  let start = 0;
  const flush = (end: number) => {
    let hasContent = ranges.length > 0 || start > 0;
    for (let i = start; !hasContent && i < end; i++) {
      const line = (lines[i] ?? '').trim();
      hasContent = line !== '' && !line.startsWith('#');
    }
    if (hasContent) ranges.push({ first: start, end });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.charCodeAt(0) === 45 && line.startsWith('---') && (line.length === 3 || line[3] === ' ' || line[3] === '\t')) {
      if (i > 0 || start > 0) flush(i);
      start = i + 1;
    }
  }
  flush(lines.length);
  return ranges;
}

function addDocument(document: unknown, file: string, documentIndex: number, objects: LoadedObject[]): void {
  // Scalars, sequences and empty documents are not Kubernetes objects; Lists are expanded.
  for (const { object, itemIndexes } of listedObjects(document)) {
    const [listItemIndex] = itemIndexes;
    objects.push({ object, source: { file, documentIndex, ...(listItemIndex !== undefined ? { listItemIndex } : {}) } });
  }
}

const SERVICE_SECTION = /^\s*\[Service\]\s*$/m;

function loadDropIn(text: string, file: string, objects: LoadedObject[], findings: Finding[]): void {
  try {
    // The parser never throws by contract and reports unreadable lines in `problems`; the guard
    // keeps a bug there from ending the whole run.
    const object = parseSystemdDropIn(text, file) as unknown as Record<string, unknown>;
    objects.push({ object, source: { file, documentIndex: 0, dropIn: object } });
  } catch (error) {
    findings.push(loaderFinding(file, 1, `the systemd drop-in cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      'Fix the drop-in so systemd can read it (`systemd-analyze verify` checks it).'));
  }
}

function syntaxFinding(file: string, error: unknown, lineOffset: number): Finding {
  if (error instanceof YAMLException) {
    const line = (error.mark?.line ?? 0) + 1 + lineOffset;
    return loaderFinding(file, line, `invalid YAML: ${error.reason}`, 'Fix the YAML syntax at this line; `ballast lint` checks the other documents of the file.');
  }
  if (error instanceof RangeError) {
    return loaderFinding(file, 1 + lineOffset, 'the YAML is nested too deeply to read', 'Flatten the document: no Kubernetes object nests this deep.');
  }
  const message = error instanceof Error ? error.message : String(error);
  return loaderFinding(file, 1 + lineOffset, `invalid YAML: ${message}`, 'Fix the YAML syntax of this file.');
}

function loaderFinding(file: string, line: number, message: string, fix: string): Finding {
  return {
    rule: YAML_SYNTAX_ERROR,
    severity: 'error',
    message,
    fix,
    object: {},
    source: { file, line },
    path: '',
    suppressed: false,
  };
}

/** A NUL character in the first 8 Ki characters: the heuristic git and grep use. */
function looksBinary(text: string): boolean {
  const nul = text.indexOf('\u0000');
  return nul >= 0 && nul < 8192;
}

function isServiceDropIn(text: string | undefined): boolean {
  return text !== undefined && !looksBinary(text) && SERVICE_SECTION.test(text);
}

function statOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

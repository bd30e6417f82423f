import { parseFieldPath } from '../validators';
import type { ManifestSource } from './load-manifests';
import { locateInFlow } from './flow-positions';
import { documentRanges } from './load-manifests';

type Segment = string | number;

/** Something to place in a file: an object (document and list item) and a field path in it. */
export interface PositionQuery {
  readonly source: ManifestSource;
  readonly path: string;
}

/**
 * Finds the 1-based line of field paths in the files that have findings, so files without
 * findings are never parsed twice. Block-style YAML (what kubectl, Helm and cdk8s write) is
 * followed line by line, which costs a fraction of a parse; documents that use flow style,
 * anchors or JSON at the place in question are re-parsed with the `yaml` package, which keeps
 * positions. A path to a field that does not exist resolves to its nearest existing parent.
 */
export class SourcePositions {
  private readonly files = new Map<string, FileLines>();

  constructor(private readonly readText: (file: string) => string) {}

  public lineOf(query: PositionQuery): number | undefined {
    if (query.source.dropIn) return lineInDropIn(query.source.dropIn, parseFieldPath(query.path));
    const file = this.fileLines(query.source.file);
    if (!file) return undefined;
    const segments: Segment[] =
      query.source.listItemIndex === undefined
        ? parseFieldPath(query.path)
        : ['items', query.source.listItemIndex, ...parseFieldPath(query.path)];
    const document = file.documents[query.source.documentIndex];
    if (!document) return undefined;
    const quick = locateInBlockYaml(file.lines, document, segments);
    if (quick.complete || !quick.needsParser) return quick.line;
    return locateWithParser(file, query.source.documentIndex, segments) ?? quick.line;
  }

  private fileLines(file: string): FileLines | undefined {
    let lines = this.files.get(file);
    if (!lines) {
      let text: string;
      try {
        text = this.readText(file);
      } catch {
        return undefined;
      }
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      const split = text.split(/\r?\n/);
      lines = { text, lines: split, documents: documentRanges(split) };
      this.files.set(file, lines);
    }
    return lines;
  }
}

interface FileLines {
  readonly text: string;
  readonly lines: readonly string[];
  /** 0-based [first, end) line ranges of each document, in the order js-yaml returns them. */
  readonly documents: ReadonlyArray<{ first: number; end: number }>;
  parsed?: unknown[];
}

interface QuickResult {
  /** 1-based line of the deepest segment found (the document's first content line at worst). */
  readonly line: number | undefined;
  readonly complete: boolean;
  /** The walk stopped at flow style, an alias or a JSON document: a real parser can go further. */
  readonly needsParser: boolean;
}

/** A block of lines whose entries start at `indent`; the first line may start further right (`- key: v`). */
interface Block {
  readonly first: number;
  readonly end: number;
  readonly indent: number;
  readonly firstColumn: number;
}

function locateInBlockYaml(
  lines: readonly string[],
  range: { first: number; end: number },
  segments: readonly Segment[],
): QuickResult {
  const firstContent = nextContentLine(lines, range.first, range.end);
  if (firstContent === undefined) return { line: undefined, complete: false, needsParser: false };
  const startIndent = indentOf(lineAt(lines, firstContent));
  const firstChar = lineAt(lines, firstContent)[startIndent];
  if (firstChar === '{' || firstChar === '[') {
    const flow = locateInFlow(lines, firstContent, startIndent, range.end, segments);
    return flow
      ? { line: flow.line + 1, complete: flow.complete, needsParser: false }
      : { line: firstContent + 1, complete: false, needsParser: true };
  }
  let block: Block = { first: firstContent, end: range.end, indent: startIndent, firstColumn: startIndent };
  let line = firstContent;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] ?? '';
    const found = typeof segment === 'number' ? findItem(lines, block, segment) : findKey(lines, block, segment);
    if (!found) return { line: line + 1, complete: false, needsParser: blockHasFlowOrAlias(lines, block) };
    line = found.line;
    if (!found.child) {
      const complete = i === segments.length - 1;
      return { line: line + 1, complete, needsParser: !complete && inlineValueIsFlowOrAlias(lineAt(lines, line)) };
    }
    block = found.child;
  }
  return { line: line + 1, complete: true, needsParser: false };
}

interface Found {
  readonly line: number;
  /** The block holding the value, when the value is on the following lines (or after `- `). */
  readonly child?: Block;
}

function findKey(lines: readonly string[], block: Block, key: string): Found | undefined {
  for (let i = block.first; i < block.end; i++) {
    const column = i === block.first ? block.firstColumn : indentOf(lineAt(lines, i));
    const text = lineAt(lines, i);
    if (isBlankOrComment(text, column)) continue;
    if (column < block.indent) return undefined;
    if (column > block.indent) continue;
    const valueColumn = keyValueColumn(text, column, key);
    if (valueColumn === undefined) continue;
    return { line: i, child: valueBlock(lines, i, column, valueColumn, block.end) };
  }
  return undefined;
}

function findItem(lines: readonly string[], block: Block, index: number): Found | undefined {
  let seen = -1;
  for (let i = block.first; i < block.end; i++) {
    const column = i === block.first ? block.firstColumn : indentOf(lineAt(lines, i));
    const text = lineAt(lines, i);
    if (isBlankOrComment(text, column)) continue;
    if (column < block.indent) return undefined;
    if (column > block.indent || text[column] !== '-' || !(column + 1 === text.length || text[column + 1] === ' '))
      continue;
    if (++seen !== index) continue;
    let contentColumn = column + 1;
    while (text[contentColumn] === ' ') contentColumn++;
    let end = i + 1;
    while (end < block.end) {
      const next = lineAt(lines, end);
      const nextIndent = indentOf(next);
      if (!isBlankOrComment(next, nextIndent) && nextIndent <= column) break;
      end++;
    }
    if (contentColumn >= text.length || text[contentColumn] === '#') {
      const first = nextContentLine(lines, i + 1, end);
      if (first === undefined) return { line: i };
      const indent = indentOf(lineAt(lines, first));
      return { line: i, child: { first, end, indent, firstColumn: indent } };
    }
    if (
      isFlowOrAliasStart(text[contentColumn]) ||
      (!/^[^:]*:(\s|$)/.test(text.slice(contentColumn)) && !text.slice(contentColumn).startsWith('- '))
    ) {
      return { line: i };
    }
    return { line: i, child: { first: i, end, indent: contentColumn, firstColumn: contentColumn } };
  }
  return undefined;
}

/** The column after `key:` when the line at `column` is that key, quoted or not. */
function keyValueColumn(text: string, column: number, key: string): number | undefined {
  for (const quote of ['', '"', "'"]) {
    const written = `${quote}${key}${quote}`;
    if (!text.startsWith(written, column)) continue;
    let after = column + written.length;
    while (text[after] === ' ') after++;
    if (text[after] === ':' && (after + 1 === text.length || text[after + 1] === ' ' || text[after + 1] === '\t'))
      return after + 1;
  }
  return undefined;
}

/** The lines of a key's value when it continues below the key; undefined for an inline scalar. */
function valueBlock(
  lines: readonly string[],
  keyLine: number,
  keyColumn: number,
  valueColumn: number,
  end: number,
): Block | undefined {
  const rest = lineAt(lines, keyLine).slice(valueColumn).trim();
  if (rest !== '' && !rest.startsWith('#') && !/^[&!][^\s]*$/.test(rest) && !/^[|>]/.test(rest)) return undefined;
  if (/^[|>]/.test(rest)) return undefined; // block scalar: its lines are text, not fields
  let last = keyLine + 1;
  let first: number | undefined;
  while (last < end) {
    const text = lineAt(lines, last);
    const indent = indentOf(text);
    if (!isBlankOrComment(text, indent)) {
      // A sequence may sit at the same indent as its key (`containers:\n- name: x`).
      if (indent < keyColumn || (indent === keyColumn && text[indent] !== '-')) break;
      first ??= last;
    }
    last++;
  }
  if (first === undefined) return undefined;
  const indent = indentOf(lineAt(lines, first));
  return { first, end: last, indent, firstColumn: indent };
}

function nextContentLine(lines: readonly string[], from: number, end: number): number | undefined {
  for (let i = from; i < end; i++) {
    if (!isBlankOrComment(lineAt(lines, i), indentOf(lineAt(lines, i)))) return i;
  }
  return undefined;
}

function indentOf(text: string): number {
  let i = 0;
  while (text.charCodeAt(i) === 32) i++;
  return i;
}

function isBlankOrComment(text: string, column: number): boolean {
  return column >= text.length || text[column] === '#' || text.trim() === '';
}

function isFlowOrAliasStart(char: string | undefined): boolean {
  return char === '{' || char === '[' || char === '*' || char === '<';
}

function inlineValueIsFlowOrAlias(text: string): boolean {
  const match = /:\s+([{[*])/.exec(text);
  return match !== null || /<<\s*:/.test(text);
}

function blockHasFlowOrAlias(lines: readonly string[], block: Block): boolean {
  for (let i = block.first; i < block.end; i++) {
    if (
      /(^|[\s:-])[{[*]/.test(lineAt(lines, i).slice(i === block.first ? block.firstColumn : 0)) ||
      /<<\s*:/.test(lineAt(lines, i))
    )
      return true;
  }
  return false;
}

/** Slow path: the `yaml` package (loaded only when needed) with positions, on one file. */
function locateWithParser(file: FileLines, documentIndex: number, segments: readonly Segment[]): number | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const yaml = require('yaml') as typeof import('yaml');
  if (!file.parsed) {
    const counter = new yaml.LineCounter();
    try {
      const documents = yaml.parseAllDocuments(file.text, { lineCounter: counter, uniqueKeys: false });
      file.parsed = Array.isArray(documents) ? documents.map((document) => ({ document, counter })) : [];
    } catch {
      file.parsed = [];
    }
  }
  const entry = file.parsed[documentIndex] as
    { document: import('yaml').Document; counter: import('yaml').LineCounter } | undefined;
  if (!entry) return undefined;
  const { document, counter } = entry;
  let node: unknown = document.contents;
  let offset: number | undefined = rangeStart(node);
  for (const segment of segments) {
    if (yaml.isAlias(node)) node = node.resolve(document);
    let next: unknown;
    if (typeof segment === 'number' && yaml.isSeq(node)) {
      next = node.items[segment];
    } else if (yaml.isMap(node)) {
      const pair = node.items.find((item) =>
        yaml.isScalar(item.key) ? String(item.key.value) === String(segment) : false,
      );
      if (pair) {
        offset = rangeStart(pair.key) ?? offset;
        next = pair.value;
        if (yaml.isAlias(next)) next = next.resolve(document);
        node = next;
        continue;
      }
    }
    if (next === undefined || next === null) break;
    offset = rangeStart(next) ?? offset;
    node = next;
  }
  return offset === undefined ? undefined : counter.linePos(offset).line;
}

/** Drop-in entries carry the line they were read from: the deepest one on the path wins. */
function lineInDropIn(object: Record<string, unknown>, segments: readonly Segment[]): number | undefined {
  let node: unknown = object;
  let line: number | undefined;
  for (const segment of segments) {
    if (node === null || typeof node !== 'object') break;
    node = (node as Record<string | number, unknown>)[segment];
    const own = (node as { line?: unknown } | null | undefined)?.line;
    if (typeof own === 'number') line = own;
  }
  return line;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? range[0] : undefined;
}

/** Line `index`, or '' past the end (callers stay within their block's bounds). */
function lineAt(lines: readonly string[], index: number): string {
  return lines[index] ?? '';
}

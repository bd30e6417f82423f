import type { DocumentLines } from './document-ranges';

/**
 * The fast path of source positions: block-style YAML (what kubectl, Helm and cdk8s write) is
 * followed line by line, a fraction of the cost of a parse. It stops, asking for the parser, at
 * flow style, anchors and JSON. The items of a block sequence are indexed once per sequence, so a
 * `kubectl get -o yaml` List of 16,000 items costs one pass, not one pass per finding.
 */

export type Segment = string | number;

export interface QuickResult {
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

export function locateInBlockYaml(
  lines: readonly string[],
  range: DocumentLines,
  segments: readonly Segment[],
): QuickResult {
  const firstContent = nextContentLine(lines, range.first, range.end);
  if (firstContent === undefined) return { line: undefined, complete: false, needsParser: false };
  const startIndent = indentOf(lineAt(lines, firstContent));
  const firstChar = lineAt(lines, firstContent)[startIndent];
  // Flow style or JSON from the document's start: the parser places it.
  if (firstChar === '{' || firstChar === '[') return { line: firstContent + 1, complete: false, needsParser: true };
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

/** The line of every item of a block sequence, found once per sequence and kept with the lines. */
const sequenceItems = new WeakMap<readonly string[], Map<string, number[]>>();

function itemLines(lines: readonly string[], block: Block): number[] {
  let perFile = sequenceItems.get(lines);
  if (!perFile) sequenceItems.set(lines, (perFile = new Map()));
  const key = `${block.first}:${block.firstColumn}:${block.indent}:${block.end}`;
  let items = perFile.get(key);
  if (items) return items;
  items = [];
  for (let i = block.first; i < block.end; i++) {
    const column = i === block.first ? block.firstColumn : indentOf(lineAt(lines, i));
    const text = lineAt(lines, i);
    if (isBlankOrComment(text, column)) continue;
    if (column < block.indent) break;
    if (column > block.indent || text[column] !== '-' || !(column + 1 === text.length || text[column + 1] === ' '))
      continue;
    items.push(i);
  }
  perFile.set(key, items);
  return items;
}

function findItem(lines: readonly string[], block: Block, index: number): Found | undefined {
  const items = itemLines(lines, block);
  const i = items[index];
  if (i === undefined) return undefined;
  const text = lineAt(lines, i);
  const column = i === block.first ? block.firstColumn : indentOf(text);
  let contentColumn = column + 1;
  while (text[contentColumn] === ' ') contentColumn++;
  const end = items[index + 1] ?? itemEnd(lines, i, column, block.end);
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

/** The end of the last item of a sequence: the first later line indented no deeper than its dash. */
function itemEnd(lines: readonly string[], itemLine: number, column: number, blockEnd: number): number {
  let end = itemLine + 1;
  while (end < blockEnd) {
    const next = lineAt(lines, end);
    const nextIndent = indentOf(next);
    if (!isBlankOrComment(next, nextIndent) && nextIndent <= column) break;
    end++;
  }
  return end;
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
/** The value blocks found so far, kept with the lines: a key on every finding's path is measured once. */
const valueBlocks = new WeakMap<readonly string[], Map<string, Block | undefined>>();

function valueBlock(
  lines: readonly string[],
  keyLine: number,
  keyColumn: number,
  valueColumn: number,
  end: number,
): Block | undefined {
  let perFile = valueBlocks.get(lines);
  if (!perFile) valueBlocks.set(lines, (perFile = new Map()));
  const key = `${keyLine}:${keyColumn}:${valueColumn}:${end}`;
  if (perFile.has(key)) return perFile.get(key);
  const block = measureValueBlock(lines, keyLine, keyColumn, valueColumn, end);
  perFile.set(key, block);
  return block;
}

function measureValueBlock(
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

function lineAt(lines: readonly string[], index: number): string {
  return lines[index] ?? '';
}

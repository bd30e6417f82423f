import { Node, Pair, Scalar, YAMLMap, isMap, isScalar, isSeq, parseDocument, stringify } from 'yaml';
import type { FixEdit } from '../validators/fixes';
import { lineStartOffsets } from './document-ranges';
import { fileDocumentTexts } from './json-stream';
import { dropInReplacements } from './drop-in-edits';
import { pairWithKey, pairsWithKey } from './yaml-nodes';

/** Replace `text[start, end)` by `text`: how a fix becomes a change of the file (and a SARIF replacement). */
export interface TextReplacement {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Where the object a fix is for sits in its file. */
export interface ObjectLocation {
  readonly documentIndex: number;
  readonly listItemIndex?: number;
  /** The field `listItemIndex` counts in, when it is not a List's `items` (an OpenShift Template's `objects`). */
  readonly listField?: 'objects';
  /** The object was read from a systemd drop-in, not YAML. */
  readonly dropIn?: boolean;
}

/**
 * The smallest text replacements that carry out `edits` on the object at `location` in `text`,
 * leaving every other byte alone: comments, key order, quoting, indentation, flow or block style
 * and document separators. Positions come from the `yaml` package's parse of that one document.
 * Returns a reason instead where the edit would have to restructure the text (an alias on the way,
 * a key sharing its line with a list dash). A systemd drop-in is edited in its directives' text.
 */
export function textReplacements(
  text: string,
  location: ObjectLocation,
  edits: readonly FixEdit[],
): { replacements: TextReplacement[] } | { unsafe: string } {
  if (location.dropIn) return dropInReplacements(text, edits);
  const found = fileDocumentTexts(text)[location.documentIndex];
  if (!found) return { unsafe: 'the document was not found in the file' };
  const { start: base, text: documentText } = found;
  const document = parseDocument(documentText, { uniqueKeys: false });
  const prefix: Array<string | number> =
    location.listItemIndex === undefined ? [] : [location.listField ?? 'items', location.listItemIndex];
  // Offsets within the document; placed in the file at the end.
  const replacements: TextReplacement[] = [];
  // Edits inside a YAML text held in a block scalar: grouped by the string they edit.
  const embedded = new Map<string, { in: ReadonlyArray<string | number>; edits: FixEdit[] }>();
  for (const edit of edits.filter((candidate) => candidate.in !== undefined)) {
    const group = embedded.get(JSON.stringify(edit.in)) ?? { in: edit.in ?? [], edits: [] };
    group.edits.push({ ...edit, in: undefined });
    embedded.set(JSON.stringify(edit.in), group);
  }
  for (const group of embedded.values()) {
    const node = nodeAt(document.contents, [...prefix, ...group.in]);
    const planned = isScalar(node) ? blockScalarReplacements(documentText, node, group.edits) : undefined;
    if (!planned)
      return { unsafe: 'the configuration text is not a literal block (`|`) the fix can edit: edit it by hand' };
    if ('unsafe' in planned) return planned;
    replacements.push(...planned.replacements);
  }
  for (const edit of edits.filter((candidate) => candidate.in === undefined)) {
    if (edit.op === 'split') {
      const split = splitReplacements(documentText, document.contents, String(edit.path[0]));
      if ('unsafe' in split) return split;
      replacements.push(...split.replacements);
      continue;
    }
    if (edit.op === 'keep-last') {
      const kept = keepLastReplacements(documentText, document.contents, [...prefix, ...edit.path]);
      if ('unsafe' in kept) return kept;
      replacements.push(...kept.replacements);
      continue;
    }
    const planned = replacementFor(documentText, document.contents, [...prefix, ...edit.path], edit);
    if ('unsafe' in planned) return planned;
    if (planned.replacement) replacements.push(planned.replacement);
  }
  // Planned within the document, placed in the file; new lines are written with the document's own
  // line ends (Windows files keep `\r\n`).
  const crlf = /\r\n/.test(documentText.slice(0, documentText.indexOf('\n') + 1));
  return {
    replacements: replacements.map((r) => ({
      start: r.start + base,
      end: r.end + base,
      text: crlf ? r.text.replace(/\r?\n/g, '\r\n') : r.text,
    })),
  };
}

/** Applies non-overlapping replacements (the later ones first, so offsets stay valid). */
export function applyReplacements(text: string, replacements: readonly TextReplacement[]): string {
  let result = text;
  // The last first; of insertions at one offset, the later first, so they end up in the order given.
  const ordered = replacements.map((replacement, index) => ({ replacement, index }));
  ordered.sort((a, b) => b.replacement.start - a.replacement.start || b.index - a.index);
  for (const { replacement } of ordered) {
    result = result.slice(0, replacement.start) + replacement.text + result.slice(replacement.end);
  }
  return result;
}

type Planned = { replacement?: TextReplacement } | { unsafe: string };

function nodeAt(root: unknown, path: ReadonlyArray<string | number>): unknown {
  let node = root;
  for (const segment of path) {
    if (isMap(node)) node = pairWithKey(node, segment)?.value;
    else if (isSeq(node) && typeof segment === 'number') node = node.items[segment];
    else return undefined;
  }
  return node;
}

/**
 * Edits inside the YAML document a literal block scalar holds (`- |` then indented lines): the
 * document is edited as its own text, and each replacement is moved to its place in the file, its
 * new lines indented as the block is. Undefined for any other scalar style, or an explicit
 * indentation indicator, where the lines could not be mapped one to one.
 */
function blockScalarReplacements(
  text: string,
  node: Scalar,
  edits: readonly FixEdit[],
): { replacements: TextReplacement[] } | { unsafe: string } | undefined {
  const range = node.range;
  if (node.type !== Scalar.BLOCK_LITERAL || !range || typeof node.value !== 'string') return undefined;
  const headerEnd = text.indexOf('\n', range[0]);
  if (headerEnd < 0 || /\d/.test(text.slice(range[0], headerEnd))) return undefined;
  // A file with Windows line ends keeps them: the `\r` before each `\n` is no part of the text.
  const newline = text[headerEnd - 1] === '\r' ? '\r\n' : '\n';
  const outerLines: Array<{ start: number; length: number }> = [];
  for (let start = headerEnd + 1; start < range[1];) {
    const end = text.indexOf('\n', start);
    const lineEnd = end < 0 || end > range[1] ? range[1] : end;
    const contentEnd = newline === '\r\n' && text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd;
    outerLines.push({ start, length: contentEnd - start });
    start = lineEnd + 1;
  }
  const firstContent = outerLines.find((line) => text.slice(line.start, line.start + line.length).trim() !== '');
  if (!firstContent) return undefined;
  const indent = /^ */.exec(text.slice(firstContent.start, firstContent.start + firstContent.length))?.[0].length ?? 0;
  const inner = node.value;
  const innerLines = inner.split('\n');
  // The block's lines without their indentation must be the string the parser read.
  const rebuilt = outerLines.map((line) =>
    text.slice(line.start + Math.min(indent, line.length), line.start + line.length),
  );
  if (!innerLines.every((line, i) => line === (rebuilt[i] ?? ''))) return undefined;
  const planned = textReplacements(inner, { documentIndex: 0 }, edits);
  if ('unsafe' in planned) return planned;
  const innerStarts = lineStartOffsets(inner);
  const toOuter = (at: number): number => {
    let line = innerStarts.length - 1;
    while (line > 0 && (innerStarts[line] ?? 0) > at) line--;
    const outer = outerLines[line];
    if (!outer) return range[1];
    return outer.start + Math.min(indent, outer.length) + (at - (innerStarts[line] ?? 0));
  };
  return {
    replacements: planned.replacements.map((replacement) => ({
      start: toOuter(replacement.start),
      end: toOuter(replacement.end),
      text: replacement.text.replace(/\n/g, `${newline}${' '.repeat(indent)}`),
    })),
  };
}

/** An edit of one field's value: set, delete or rename. */
type FieldEdit = Exclude<FixEdit, { op: 'keep-last' | 'split' }>;

/** What each of the objects split apart must write once: a part without them took a field of another. */
const OBJECT_HEAD = ['apiVersion', 'kind', 'metadata'];

/**
 * Where each object after the first of several run together begins, and the `---` line written
 * there: at each later writing of `key` (`kind`), or at the apiVersion written again just before
 * it; above the comment lines that lead into it. Refused unless each part then writes every key once
 * and has its own apiVersion, kind and metadata: otherwise the objects interleave (a key of the next
 * may sit before its kind), for a person to untangle.
 */
function splitReplacements(
  text: string,
  root: unknown,
  key: string,
): { replacements: TextReplacement[] } | { unsafe: string } {
  if (!isMap(root)) return { unsafe: 'the document is not a mapping' };
  const keys = root.items.map((pair) => String(isScalar(pair.key) ? pair.key.value : pair.key));
  const writings = keys.flatMap((name, index) => (name === key ? [index] : []));
  if (writings.length < 2) return { unsafe: `the document writes ${key} once: nothing to split` };
  const starts = [0];
  for (const writing of writings.slice(1)) {
    const previousStart = starts[starts.length - 1]!;
    const apiVersionBefore = keys.slice(previousStart, writing - 1).includes('apiVersion');
    starts.push(keys[writing - 1] === 'apiVersion' && apiVersionBefore ? writing - 1 : writing);
  }
  const parts = starts.map((start, i) => keys.slice(start, starts[i + 1] ?? keys.length));
  const whole = (part: readonly string[]) =>
    new Set(part).size === part.length && OBJECT_HEAD.every((field) => part.includes(field));
  if (!parts.every(whole)) return { unsafe: 'the objects interleave their keys: split them by hand' };
  const replacements: TextReplacement[] = [];
  for (const start of starts.slice(1)) {
    const keyStart = (root.items[start]?.key as Node | undefined)?.range?.[0];
    if (keyStart === undefined) return { unsafe: 'the key has no position' };
    let at = text.lastIndexOf('\n', keyStart - 1) + 1;
    if (text.slice(at, keyStart).trim() !== '') return { unsafe: 'an object after the first does not begin a line' };
    // Comment lines right above an object's first key introduce it: the `---` goes above them.
    for (let previous = text.lastIndexOf('\n', at - 2) + 1; at > 0; previous = text.lastIndexOf('\n', at - 2) + 1) {
      if (!/^\s*#/.test(text.slice(previous, at))) break;
      at = previous;
    }
    replacements.push({ start: at, end: at, text: '---\n' });
  }
  return { replacements };
}

function replacementFor(text: string, root: unknown, path: ReadonlyArray<string | number>, edit: FieldEdit): Planned {
  let node: unknown = root;
  for (const [i, segment] of path.entries()) {
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = pairWithKey(node, segment);
      if (last) return editInMap(text, node, pair, String(segment), edit);
      if (!pair) return edit.op === 'delete' ? {} : { unsafe: `no ${String(segment)} to change` };
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item: unknown = node.items[segment];
      if (last) {
        if (edit.op !== 'set' || !item) return { unsafe: 'only whole values in a list are replaced' };
        return replaceValue(text, item, edit.value);
      }
      node = item;
    } else {
      return { unsafe: 'the field sits behind an alias, a scalar or another shape the fix does not rewrite' };
    }
  }
  return { unsafe: 'an empty path' };
}

/** Removes every writing but the last of a key its mapping writes more than once (`keep-last`). */
function keepLastReplacements(
  text: string,
  root: unknown,
  path: ReadonlyArray<string | number>,
): { replacements: TextReplacement[] } | { unsafe: string } {
  const map = nodeAt(root, path.slice(0, -1));
  const key = String(path[path.length - 1]);
  if (!isMap(map)) return { unsafe: 'the repeated key is not in a mapping the fix can find' };
  const pairs = pairsWithKey(map, key);
  const replacements: TextReplacement[] = [];
  for (const pair of pairs.slice(0, -1)) {
    const planned = deletePair(text, map, pair);
    if ('unsafe' in planned) return planned;
    if (!planned.replacement) continue;
    // A comment in the value that goes would go with it: every comment is kept, so a person decides.
    if (/(^|\s)#/m.test(text.slice(planned.replacement.start, planned.replacement.end)))
      return { unsafe: 'an earlier writing of the key holds comments: merge them into the last one by hand' };
    replacements.push(planned.replacement);
  }
  const overlapping = replacements.some((a, i) =>
    replacements.some((b, j) => i !== j && a.start < b.end && b.start < a.end),
  );
  return overlapping ? { unsafe: 'the repeated keys share text: remove all but the last by hand' } : { replacements };
}

function editInMap(text: string, map: YAMLMap, pair: Pair | undefined, key: string, edit: FieldEdit): Planned {
  if (edit.op === 'rename') return pair ? renameKey(pair, edit.to) : { unsafe: `no ${key} to rename` };
  if (edit.op === 'set' && pair) return replacePairValue(text, pair, edit.value);
  if (edit.op === 'delete' && !pair) return {};
  if (edit.op === 'set') return insertPair(text, map, key, edit.value, edit.first === true, edit.comment);
  return deletePair(text, map, pair as Pair);
}

/** The key's own text replaced, its value and comments untouched. */
function renameKey(pair: Pair, to: string): Planned {
  const range = (pair.key as Node | undefined)?.range;
  if (!range || !isScalar(pair.key)) return { unsafe: 'the key has no position' };
  return { replacement: { start: range[0], end: range[1], text: flowText(to) } };
}

/**
 * A block collection under a key is replaced from just after the key's colon, so the new flow value
 * sits on the key's line (`strategy: {type: Recreate}`); a scalar or flow value is replaced in place.
 */
function replacePairValue(text: string, pair: Pair, replacement: unknown): Planned {
  const value = pair.value;
  const keyEnd = (pair.key as Node | undefined)?.range?.[1];
  const range = (value as Node | null)?.range;
  if ((isMap(value) || isSeq(value)) && !value.flow && keyEnd !== undefined && range) {
    const colon = text.indexOf(':', keyEnd);
    if (colon < 0 || colon > range[0]) return { unsafe: 'the key has no colon before its value' };
    return { replacement: { start: colon + 1, end: contentEnd(text, range[1]), text: ` ${flowText(replacement)}` } };
  }
  return replaceValue(text, value, replacement);
}

/** The end of a node's text without the line break and blanks a block collection's range ends with. */
function contentEnd(text: string, end: number): number {
  let at = end;
  while (at > 0 && /\s/.test(text[at - 1] ?? '')) at--;
  return at;
}

function replaceValue(text: string, value: unknown, replacement: unknown): Planned {
  const range = (value as Node | null)?.range;
  if (!range) return { unsafe: 'the value has no position' };
  return { replacement: { start: range[0], end: contentEnd(text, range[1]), text: valueText(value, replacement) } };
}

/** Quoting styles a one-line string can keep: a string replacing one of them is written the same way. */
const KEPT_STRING_STYLES = new Set<string>([Scalar.PLAIN, Scalar.QUOTE_SINGLE, Scalar.QUOTE_DOUBLE]);

/**
 * The text of a new value, written as the value it replaces was: a string keeps the quoting of the
 * string it replaces (`'...'` stays single-quoted), a plain one is quoted only where YAML needs it.
 */
function valueText(original: unknown, replacement: unknown): string {
  if (typeof replacement === 'string' && isScalar(original) && KEPT_STRING_STYLES.has(original.type ?? '')) {
    const style = original.type as Scalar.Type;
    return stringify(replacement, { defaultStringType: style, lineWidth: 0 }).trimEnd();
  }
  return flowText(replacement);
}

function insertPair(
  text: string,
  map: YAMLMap,
  key: string,
  value: unknown,
  first: boolean,
  comment: string | undefined,
): Planned {
  const entry = `${flowText(key)}: ${flowText(value)}`;
  const range = map.range;
  if (!range) return { unsafe: 'the mapping has no position' };
  const firstKey = (map.items[0]?.key as Node | undefined)?.range?.[0];
  if (map.flow) {
    if (first && firstKey !== undefined) return { replacement: { start: firstKey, end: firstKey, text: `${entry}, ` } };
    const close = text.lastIndexOf('}', range[1]);
    return { replacement: { start: close, end: close, text: `${map.items.length > 0 ? ', ' : ''}${entry}` } };
  }
  const lastPair = map.items[map.items.length - 1];
  const lastEnd =
    (lastPair?.value as Node | null | undefined)?.range?.[1] ?? (lastPair?.key as Node | undefined)?.range?.[1];
  if (firstKey === undefined || lastEnd === undefined) return { unsafe: 'an empty block mapping' };
  const indent = ' '.repeat(firstKey - (text.lastIndexOf('\n', firstKey - 1) + 1));
  const commented = comment === undefined ? entry : `# ${comment.replace(/\s+/g, ' ')}\n${indent}${entry}`;
  // Before the first key, on its line: the new key takes the first key's indentation, which follows it.
  if (first) return { replacement: { start: firstKey, end: firstKey, text: `${commented}\n${indent}` } };
  let at = text.indexOf('\n', Math.max(lastEnd - 1, 0));
  if (at < 0) at = text.length;
  else if (text[at - 1] === '\r') at--;
  return { replacement: { start: at, end: at, text: `\n${indent}${commented}` } };
}

function deletePair(text: string, map: YAMLMap, pair: Pair): Planned {
  const keyStart = (pair.key as Node | undefined)?.range?.[0];
  const valueEnd = (pair.value as Node | null)?.range?.[1] ?? (pair.key as Node | undefined)?.range?.[1];
  if (keyStart === undefined || valueEnd === undefined) return { unsafe: 'the field has no position' };
  if (map.flow) {
    const index = map.items.indexOf(pair);
    const previous = map.items[index - 1];
    const next = map.items[index + 1];
    if (previous) {
      const previousEnd = (previous.value as Node | null)?.range?.[1] ?? (previous.key as Node).range?.[1] ?? keyStart;
      return { replacement: { start: previousEnd, end: valueEnd, text: '' } };
    }
    const nextStart = (next?.key as Node | undefined)?.range?.[0];
    return { replacement: { start: keyStart, end: nextStart ?? valueEnd, text: '' } };
  }
  const lineStart = text.lastIndexOf('\n', keyStart - 1) + 1;
  if (text.slice(lineStart, keyStart).trim() !== '') {
    // `- name: a` with the item's next key on the line below: that key moves up after the dash.
    const nextStart = (map.items[map.items.indexOf(pair) + 1]?.key as Node | undefined)?.range?.[0];
    const dashOnly = /^\s*-\s+$/.test(text.slice(lineStart, keyStart));
    if (
      dashOnly &&
      nextStart !== undefined &&
      !text.slice(keyStart, nextStart).includes('#') &&
      /^\s*$/.test(text.slice(valueEnd, nextStart))
    )
      return { replacement: { start: keyStart, end: nextStart, text: '' } };
    return { unsafe: 'the field shares its line with a list dash or another key: remove it by hand' };
  }
  const lineEnd = text.indexOf('\n', valueEnd - 1);
  return { replacement: { start: lineStart, end: lineEnd < 0 ? text.length : lineEnd + 1, text: '' } };
}

/** A value as one line of YAML: scalars plain where YAML reads them back the same, collections in flow style. */
function flowText(value: unknown): string {
  return stringify(value, { collectionStyle: 'flow', lineWidth: 0, flowCollectionPadding: false }).trimEnd();
}

import { Document, LineCounter, Node, isAlias, isMap, isSeq, parseDocument } from 'yaml';
import type { Segment } from './block-yaml-positions';
import { pairWithKey } from './yaml-nodes';

/** A document parsed with the position of every node, and what a field path's line is in its file. */
export interface PositionedDocument {
  /** The 1-based file line of the deepest node of `path` that exists (the document's start at worst). */
  lineOf(path: readonly Segment[]): number | undefined;
}

/**
 * Parses one document's text (its first line is `firstLine` of the file) with the `yaml` package,
 * which keeps every node's position. Only positions are read: no schema conversion, no limit on
 * aliases, duplicate keys allowed.
 */
export function parseWithPositions(text: string, firstLine: number): PositionedDocument {
  const counter = new LineCounter();
  const document = parseDocument(text, { lineCounter: counter, keepSourceTokens: false, uniqueKeys: false });
  return {
    lineOf(path) {
      const offset = deepestOffset(document, path);
      return offset === undefined ? undefined : firstLine - 1 + counter.linePos(offset).line;
    },
  };
}

/** The start offset of the deepest node of `path` that exists (the document's content at worst). */
function deepestOffset(document: Document.Parsed, path: readonly Segment[]): number | undefined {
  let node: unknown = document.contents;
  let offset = rangeStart(node);
  for (const segment of path) {
    if (isAlias(node)) break;
    let next: unknown;
    let at: number | undefined;
    if (isMap(node)) {
      const pair = pairWithKey(node, segment);
      next = pair?.value;
      at = rangeStart(pair?.key);
    } else if (isSeq(node) && typeof segment === 'number') {
      next = node.items[segment];
      at = rangeStart(next);
    }
    if (at === undefined) break;
    offset = at;
    node = next;
  }
  return offset;
}

function rangeStart(node: unknown): number | undefined {
  return node && typeof node === 'object' && 'range' in node ? (node as Node).range?.[0] : undefined;
}

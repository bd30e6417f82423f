import { Document, LineCounter, Node, isAlias, isMap, isScalar, isSeq, parseAllDocuments } from 'yaml';
import { parseFieldPath } from '../validators';
import type { ManifestSource } from './load-manifests';

type Segment = string | number;

/** Something to place in a file: an object (document and list item) and a field path in it. */
export interface PositionQuery {
  readonly source: ManifestSource;
  readonly path: string;
}

interface ParsedFile {
  readonly documents: ReadonlyArray<Document.Parsed>;
  readonly lines: LineCounter;
}

/**
 * Finds the 1-based line of a finding's field. Only files that have findings are parsed a second
 * time, once each, with the `yaml` package, which keeps the position of every node; a lookup then
 * walks the field path through the nodes (a map's keys, a sequence's index), so the cost is one
 * linear parse per file plus the depth of each path, whatever the file's shape: block or flow
 * YAML, a one-line JSON List of 16,000 items, anchors and aliases. A path to a field that does
 * not exist resolves to its nearest existing parent; an alias resolves to the line of the alias.
 */
export class SourcePositions {
  private readonly files = new Map<string, ParsedFile | undefined>();

  constructor(private readonly readText: (file: string) => string) {}

  public lineOf(query: PositionQuery): number | undefined {
    const segments = parseFieldPath(query.path);
    if (query.source.dropIn) return lineInDropIn(query.source.dropIn, segments);
    const file = this.parsed(query.source.file);
    const document = file?.documents[query.source.documentIndex];
    if (!file || !document) return undefined;
    const path: Segment[] = query.source.listItemIndex === undefined ? segments : ['items', query.source.listItemIndex, ...segments];
    const offset = deepestOffset(document, path);
    return offset === undefined ? undefined : file.lines.linePos(offset).line;
  }

  private parsed(name: string): ParsedFile | undefined {
    if (this.files.has(name)) return this.files.get(name);
    let parsed: ParsedFile | undefined;
    try {
      const lines = new LineCounter();
      // Only positions are read: no alias expansion, no schema conversion, no limit on aliases.
      const documents = parseAllDocuments(this.readText(name), { lineCounter: lines, keepSourceTokens: false, uniqueKeys: false });
      parsed = { documents: Array.isArray(documents) ? documents : [], lines };
    } catch {
      parsed = undefined; // a position is a convenience: never fail a lint run over it
    }
    this.files.set(name, parsed);
    return parsed;
  }
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
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
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

/**
 * Lines in an object parsed from a systemd drop-in: the parser records `line` on every entry
 * (`service.environment[2]`); the nearest entry on the path that has one wins.
 */
function lineInDropIn(dropIn: Record<string, unknown>, segments: readonly Segment[]): number | undefined {
  let current: unknown = dropIn;
  let line: number | undefined;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') break;
    current = (current as Record<string | number, unknown>)[segment];
    const entryLine = current && typeof current === 'object' ? (current as { line?: unknown }).line : undefined;
    if (typeof entryLine === 'number') line = entryLine;
  }
  return line;
}

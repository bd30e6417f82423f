import { Segment, locateInBlockYaml } from './block-yaml-positions';
import { parseFieldPath } from '../validators';
import { DocumentLines } from './document-ranges';
import { fileDocumentRanges } from './json-stream';
import type { PositionedDocument } from './positioned-document';
import type { ManifestSource } from './load-manifests';
import type { EmbeddedSource } from './cluster-resource-sets';

/** Something to place in a file: an object (document and list item) and a field path in it. */
export interface PositionQuery {
  readonly source: ManifestSource;
  readonly path: string;
}

/** The file whose findings are being placed: findings come file by file, so only one is kept. */
interface CurrentFile {
  readonly name: string;
  readonly lines: readonly string[];
  readonly documents: readonly DocumentLines[];
  readonly parsed: Map<number, PositionedDocument>;
}

/**
 * Finds the 1-based line of a finding's field, in time linear in the size of the files that have
 * findings, whatever their shape. Block-style YAML (what kubectl, Helm and cdk8s write) is followed
 * line by line (block-yaml-positions.ts), a fraction of the cost of a parse. A document that uses
 * flow style, anchors or JSON at the place in question is parsed once with the `yaml` package,
 * which keeps the position of every node, and the path is walked through its nodes. Findings come
 * file by file, so only the current file is kept in memory. A path to a field that does not exist
 * resolves to its nearest existing parent; an alias resolves to the line of the alias.
 */
export class SourcePositions {
  private current?: CurrentFile;

  constructor(private readonly readText: (file: string) => string) {}

  public lineOf(query: PositionQuery): number | undefined {
    const segments = parseFieldPath(query.path);
    if (query.source.dropIn) return lineInDropIn(query.source.dropIn, segments);
    const { embeddedIn, ...host } = query.source;
    if (embeddedIn) return this.lineInEmbedded(host, embeddedIn, query.path);
    const file = this.file(query.source.file);
    const range = file?.documents[query.source.documentIndex];
    if (!file || !range) return undefined;
    const path: Segment[] =
      query.source.listItemIndex === undefined
        ? segments
        : [query.source.listField ?? 'items', query.source.listItemIndex, ...segments];
    const quick = locateInBlockYaml(file.lines, range, path);
    if (quick.complete || !quick.needsParser) return quick.line;
    return this.lineWithParser(file, query.source.documentIndex, range, path) ?? quick.line;
  }

  /**
   * An object written as text in a field of another: the line of that field, and where the text is
   * a literal or folded block (`key: |`), whose lines follow the key's one for one, the line of the
   * object's own field in it.
   */
  private lineInEmbedded(host: ManifestSource, embedded: EmbeddedSource, path: string): number | undefined {
    const fieldLine = this.lineOf({ source: host, path: embedded.field });
    if (fieldLine === undefined) return undefined;
    const keyLine = this.file(host.file)?.lines[fieldLine - 1] ?? '';
    if (!/:\s*[|>][-+0-9]*\s*(#.*)?$/.test(keyLine)) return fieldLine;
    const inner = new SourcePositions(() => embedded.text).lineOf({
      source: {
        file: host.file,
        documentIndex: embedded.documentIndex,
        ...(embedded.listItemIndex !== undefined ? { listItemIndex: embedded.listItemIndex } : {}),
        ...(embedded.listField !== undefined ? { listField: embedded.listField } : {}),
      },
      path,
    });
    return inner === undefined ? fieldLine : fieldLine + inner;
  }

  private file(name: string): CurrentFile | undefined {
    if (this.current?.name === name) return this.current;
    let text: string;
    try {
      text = this.readText(name);
    } catch {
      return undefined; // a position is a convenience: never fail a lint run over it
    }
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const lines = text.split(/\r?\n/);
    this.current = { name, lines, documents: fileDocumentRanges(lines), parsed: new Map() };
    return this.current;
  }

  private lineWithParser(
    file: CurrentFile,
    index: number,
    range: DocumentLines,
    path: readonly Segment[],
  ): number | undefined {
    let parsed = file.parsed.get(index);
    if (!parsed) {
      parsed = parsedPositions().parseWithPositions(
        file.lines.slice(range.first, range.end).join('\n'),
        range.first + 1,
      );
      file.parsed.set(index, parsed);
    }
    return parsed.lineOf(path);
  }
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

/**
 * The `yaml` package's parser, loaded on first use: block YAML, what almost every file is, never
 * needs it, and loading it costs about 50 ms of every run's start-up (a pre-commit hook's).
 */
function parsedPositions(): typeof import('./positioned-document') {
  return require('./positioned-document') as typeof import('./positioned-document'); // eslint-disable-line @typescript-eslint/no-require-imports
}

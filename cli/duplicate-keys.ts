import { LineCounter, Node, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { fileDocumentTexts } from './json-stream';

/** A key one mapping writes more than once. */
export interface DuplicateKey {
  /** The document of the file (as `ManifestSource.documentIndex` counts them). */
  readonly documentIndex: number;
  /** The key's path from the document's root: the mapping's path, then the key. */
  readonly path: ReadonlyArray<string | number>;
  /** The 1-based file line of the key's last writing, the one whose value counts. */
  readonly line: number;
  /** How many times the mapping writes it. */
  readonly times: number;
}

/**
 * Every key that a mapping of the file writes twice or more, document by document, found with the
 * `yaml` package (which keeps every pair where js-yaml stops at the first repeat). Below a repeated
 * key only its last value is searched: the earlier ones are what a fix removes.
 */
export function duplicateKeys(text: string): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  fileDocumentTexts(text).forEach(({ firstLine, text: documentText }, documentIndex) => {
    const counter = new LineCounter();
    const lineOf = (offset: number): number => firstLine + counter.linePos(offset).line;
    const visit = (node: unknown, path: ReadonlyArray<string | number>): void => {
      if (isSeq(node)) node.items.forEach((item, index) => visit(item, [...path, index]));
      if (!isMap(node)) return;
      const pairsByKey = new Map<string, Array<(typeof node.items)[number]>>();
      for (const pair of node.items) {
        if (!isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        pairsByKey.set(key, [...(pairsByKey.get(key) ?? []), pair]);
      }
      for (const [key, pairs] of pairsByKey) {
        const last = pairs[pairs.length - 1];
        if (pairs.length > 1)
          found.push({
            documentIndex,
            path: [...path, key],
            line: lineOf((last?.key as Node | undefined)?.range?.[0] ?? 0),
            times: pairs.length,
          });
        visit(last?.value, [...path, key]);
      }
    };
    visit(parseDocument(documentText, { uniqueKeys: false, lineCounter: counter }).contents, []);
  });
  return found;
}

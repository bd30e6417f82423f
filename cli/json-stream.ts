import { DocumentLines, documentRanges, lineStartOffsets } from './document-ranges';

/**
 * The values of a JSON stream: objects (or arrays after the first object) written one after another
 * with only whitespace between (`{...}\n\n{...}`, as CrunchyData's examples are). kubectl applies
 * such a file as it applies a YAML stream (its decoder reads JSON values in a row when a file starts
 * with `{`), but it is no valid YAML. The line range of each value, each starting on a line of its
 * own; undefined when the text is not such a stream of two or more values starting with an object. One pass over the characters, which
 * follows strings and escapes only as far as needed to find where each value ends; the values are
 * parsed afterwards like any document.
 */
export function jsonStreamRanges(lines: readonly string[]): DocumentLines[] | undefined {
  const ranges: DocumentLines[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let first = -1;
  for (let lineIndex = 0; lineIndex < lines.length; lineIndex++) {
    const line = lines[lineIndex] ?? '';
    for (let i = 0; i < line.length; i++) {
      const char = line[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (char === '\\') escaped = true;
        else if (char === '"') inString = false;
      } else if (char === '"') {
        if (depth === 0) return undefined;
        inString = true;
      } else if (char === '{' || char === '[') {
        if (depth === 0) {
          // kubectl reads a file as JSON only when it starts with an object.
          if (ranges.length === 0 && char !== '{') return undefined;
          // A value must start on a line of its own, after the previous one ended.
          if (ranges.length > 0 && lineIndex < (ranges[ranges.length - 1]?.end ?? 0)) return undefined;
          first = lineIndex;
        }
        depth++;
      } else if (char === '}' || char === ']') {
        if (depth === 0) return undefined;
        depth--;
        if (depth === 0) ranges.push({ first, end: lineIndex + 1 });
      } else if (depth === 0 && char !== ' ' && char !== '\t' && char !== '\r' && char !== '\uFEFF') {
        return undefined;
      }
    }
  }
  return depth === 0 && !inString && ranges.length >= 2 ? ranges : undefined;
}

/** The documents of a file as lint reads them: a JSON stream's values, else the YAML stream's documents. */
export function fileDocumentRanges(lines: readonly string[]): DocumentLines[] {
  return jsonStreamRanges(lines) ?? documentRanges(lines);
}

/** One document of a file as text: its first line (0-based), where it starts and its text. */
export interface DocumentText {
  readonly firstLine: number;
  readonly start: number;
  readonly text: string;
}

/** The documents of a file (fileDocumentRanges) as their own texts, line ends kept. */
export function fileDocumentTexts(text: string): DocumentText[] {
  const lineStarts = lineStartOffsets(text);
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  return fileDocumentRanges(lines).map((range) => {
    const start = lineStarts[range.first] ?? 0;
    return { firstLine: range.first, start, text: text.slice(start, lineStarts[range.end] ?? text.length) };
  });
}

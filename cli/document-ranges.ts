/** One document of a YAML stream: its lines, 0-based, `[first, end)`. */
export interface DocumentLines {
  readonly first: number;
  readonly end: number;
}

/**
 * The documents of a YAML stream, split at its `---` lines (which YAML never allows inside a
 * document), in the order js-yaml returns them: text before the first marker counts only when it
 * has content. One linear pass over the lines.
 */
export function documentRanges(lines: readonly string[]): DocumentLines[] {
  const ranges: DocumentLines[] = [];
  let start = 0;
  const flush = (end: number) => {
    let hasContent = ranges.length > 0 || start > 0;
    for (let i = start; !hasContent && i < end; i++) {
      const line = (lines[i] ?? '').trim();
      hasContent = line !== '' && !line.startsWith('#');
    }
    if (hasContent) ranges.push({ first: start, end });
  };
  lines.forEach((line, i) => {
    if (line.charCodeAt(0) === 45 && /^---(\s|$)/.test(line)) {
      if (i > 0 || start > 0) flush(i);
      start = i + 1;
    }
  });
  flush(lines.length);
  return ranges;
}

/** The offset in `text` at which each of its lines starts (`\n`-separated; the first is 0). */
export function lineStartOffsets(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

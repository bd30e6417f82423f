import type { FixEdit } from '../validators/fixes';
import { valueAt } from '../validators/json';
import { parseSystemdDropIn } from '../validators/systemd-drop-in';
import { lineStartOffsets } from './document-ranges';

/**
 * The text replacements that carry out `edits` on a systemd drop-in, as `ballast fix` applies
 * them: an edit sets a string the parser read out of a directive (`service.environment[0].value`,
 * `service.execStart[1].argv[4]`). The directive's lines are searched for that string as the file
 * writes it, and only the part that changes is replaced, so quotes,
 * continuation lines, comments and every other directive stay as they were. Where the string is
 * not written literally, or not once, the edit is refused with why.
 */
export function dropInReplacements(
  text: string,
  edits: readonly FixEdit[],
): { replacements: Array<{ start: number; end: number; text: string }> } | { unsafe: string } {
  const dropIn: unknown = parseSystemdDropIn(text, 'drop-in.conf');
  const lineStarts = lineStartOffsets(text);
  const replacements: Array<{ start: number; end: number; text: string }> = [];
  for (const edit of edits) {
    const [section, list, index] = edit.path;
    const entry = valueAt(dropIn, [section ?? '', list ?? '', index ?? '']) as { line?: unknown } | undefined;
    const before = valueAt(dropIn, edit.path);
    if (
      edit.op !== 'set' ||
      typeof edit.value !== 'string' ||
      typeof before !== 'string' ||
      typeof entry?.line !== 'number'
    ) {
      return { unsafe: 'the fix sets no single value of a directive' };
    }
    const start = lineStarts[entry.line - 1] ?? 0;
    const directive = text.slice(start, directiveEnd(text, start));
    // systemd reads `%%` as one `%`; drop-ins written by hand often have a single `%` all the same.
    // The value is looked for in both spellings, and what is added is spelled as the file spells it.
    const spelling = [doubledPercent, (value: string) => value].find((spell) => occursOnce(directive, spell(before)));
    if (!spelling) {
      return {
        unsafe: 'the value is written with quotes or escapes inside it, or more than once: edit the directive by hand',
      };
    }
    const at = start + directive.indexOf(spelling(before));
    const change = changedPart(before, edit.value);
    replacements.push({
      start: at + spelling(before.slice(0, change.prefix)).length,
      end: at + spelling(before.slice(0, before.length - change.suffix)).length,
      text: spelling(edit.value.slice(change.prefix, edit.value.length - change.suffix)),
    });
  }
  return { replacements };
}

/** The end of a directive: its line, and the lines a trailing backslash continues it onto. */
function directiveEnd(text: string, start: number): number {
  let end = start;
  for (;;) {
    const newline = text.indexOf('\n', end);
    if (newline < 0) return text.length;
    if (!/\\\r?$/.test(text.slice(end, newline))) return newline;
    end = newline + 1;
  }
}

/** A value as systemd.syntax(7) spells it in a unit file: `%%` for one `%`. */
function doubledPercent(value: string): string {
  return value.replace(/%/g, '%%');
}

function occursOnce(text: string, part: string): boolean {
  const at = text.indexOf(part);
  return at >= 0 && text.indexOf(part, at + 1) < 0;
}

/** How many characters `before` and `after` share at the start and, after that, at the end. */
function changedPart(before: string, after: string): { prefix: number; suffix: number } {
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < before.length - prefix &&
    suffix < after.length - prefix &&
    before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
  )
    suffix++;
  return { prefix, suffix };
}

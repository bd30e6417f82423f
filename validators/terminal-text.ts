/**
 * Makes text from input safe to print on a terminal. Object names, namespaces, messages quoting
 * values, suppression justifications and file names come from files anyone can write; raw
 * control characters in them could clear the screen, retitle the window, hide text or forge a
 * summary line. Every C0/C1 control character, DEL and the bidirectional overrides (which can
 * reorder what is shown) become visible escapes: `\u001b` prints as `\x1b`, a newline as `\n`.
 */
export function terminalSafe(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, escapeCharacter);
}

function escapeCharacter(character: string): string {
  const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  const code = character.charCodeAt(0);
  return (
    named[character] ??
    (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`)
  );
}

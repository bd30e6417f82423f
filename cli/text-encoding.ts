/**
 * The encodings kubectl reads a manifest in: UTF-8, and UTF-16 with a byte-order mark, which is
 * what Windows PowerShell's `>` writes (`kubectl get ... -o yaml > app.yaml`). kubectl transcodes a
 * BOM'd UTF-16 file since 1.6 (kubernetes/kubernetes#39008), so such a file applies, and lint must
 * read its objects rather than call it binary.
 */
export type TextEncoding = 'utf8' | 'utf16le' | 'utf16be';

/** The encoding of a file's bytes, by its byte-order mark; UTF-8 without one. */
function encodingOf(bytes: Uint8Array): TextEncoding {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf16be';
  return 'utf8';
}

/** The text of a file's bytes, its byte-order mark dropped for UTF-16 (kept for UTF-8, as Node reads it). */
export function decodeText(bytes: Buffer): { readonly text: string; readonly encoding: TextEncoding } {
  const encoding = encodingOf(bytes);
  if (encoding === 'utf8') return { text: bytes.toString('utf8'), encoding };
  return { text: new TextDecoder(encoding === 'utf16le' ? 'utf-16le' : 'utf-16be').decode(bytes), encoding };
}

/** The bytes of `text` in `encoding`, with the byte-order mark a UTF-16 file had. */
export function encodeText(text: string, encoding: TextEncoding): Buffer {
  if (encoding === 'utf8') return Buffer.from(text, 'utf8');
  const littleEndian = Buffer.from(`\uFEFF${text}`, 'utf16le');
  return encoding === 'utf16le' ? littleEndian : littleEndian.swap16();
}

import * as fs from 'fs';
import { InputFile, describeError } from './input-files';
import { decodeText } from './text-encoding';

/** The largest file (and standard input) `ballast lint` reads, unless `--max-file-size` says otherwise. */
export const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;

/** The text of one input, or why it could not be read (with what to do). */
export type InputText = { readonly text: string } | { readonly problem: string; readonly fix: string };

/**
 * Reads one input with a byte limit, so no input can make lint grow without bound: `/dev/zero`,
 * a FIFO that never ends, a 600 MiB log given by mistake. Only regular files are opened (a device
 * or FIFO is refused before anything is read); standard input is read in chunks up to the limit.
 */
export function readInput(
  file: Exclude<InputFile, { kind: 'helm-chart' }>,
  maxBytes: number,
  readStdin?: () => string,
): InputText {
  if (file.kind === 'unlistable') {
    return {
      problem: `the directory cannot be listed (${file.reason}), so nothing in it was checked`,
      fix: 'Make the directory readable or leave it out of the paths.',
    };
  }
  if (file.kind === 'stdin') return readStandardInput(maxBytes, readStdin);
  // One open (non-blocking, so a FIFO without a writer cannot hang it) and one fstat on the open
  // file: a device or FIFO is refused before anything is read, and nothing can swap the file in between.
  let fd: number;
  try {
    fd = fs.openSync(file.fsPath, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    return {
      problem: `the file cannot be read: ${describeError(error)}`,
      fix: 'Make the file readable or leave it out of the paths.',
    };
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) {
      return {
        problem: `not a regular file (${specialKind(stats)}): ballast reads only files, to stay bounded`,
        fix: 'Give the path of a file, or pipe the content through `-`.',
      };
    }
    if (stats.size > maxBytes) return tooLarge(stats.size, maxBytes);
    return { text: decodeText(readBytes(fd, stats.size)).text };
  } catch (error) {
    return {
      problem: `the file cannot be read: ${describeError(error)}`,
      fix: 'Make the file readable or leave it out of the paths.',
    };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The first `size` bytes of an open file, read into one buffer of that size: a third quicker than
 * `readFileSync(fd)`, which grows its buffer as it reads, on a walk of thousands of small files. A
 * file that shrank since its fstat gives what it still holds.
 */
function readBytes(fd: number, size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const read = fs.readSync(fd, bytes, filled, size - filled, filled);
    if (read === 0) break;
    filled += read;
  }
  return filled === size ? bytes : bytes.subarray(0, filled);
}

function readStandardInput(maxBytes: number, readStdin?: () => string): InputText {
  if (readStdin) {
    const text = readStdin();
    return Buffer.byteLength(text) > maxBytes ? tooLarge(Buffer.byteLength(text), maxBytes) : { text };
  }
  const chunks: Buffer[] = [];
  const chunk = Buffer.alloc(1024 * 1024);
  let total = 0;
  for (;;) {
    let read: number;
    try {
      read = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') continue; // a non-blocking pipe with nothing yet
      if (code === 'EOF') break;
      return {
        problem: `standard input cannot be read: ${describeError(error)}`,
        fix: 'Pipe the manifests into `ballast lint -`.',
      };
    }
    if (read === 0) break;
    total += read;
    if (total > maxBytes) return tooLarge(total, maxBytes, true);
    chunks.push(Buffer.from(chunk.subarray(0, read)));
  }
  return { text: decodeText(Buffer.concat(chunks)).text };
}

function tooLarge(size: number, maxBytes: number, atLeast = false): InputText {
  return {
    problem: `${atLeast ? 'more than ' : ''}${mebibytes(size)} MiB, above the limit of ${mebibytes(maxBytes)} MiB: not read`,
    fix: 'Lint the manifests in smaller files, or raise the limit with --max-file-size <MiB>.',
  };
}

function mebibytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 2 : 0);
}

function specialKind(stats: fs.Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a directory';
  return 'a special file';
}

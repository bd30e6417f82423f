import * as fs from 'fs';
import { MessageChannel, Worker, receiveMessageOnPort } from 'worker_threads';
import { kubernetesYamlSchema } from '../validators/yaml-schema';

/** One path found by the reader, in the order findings report files. */
export interface ReadFile {
  /** The path as findings name it; `-` stands for standard input (read by the caller). */
  readonly path: string;
  /** Found by walking a directory, as opposed to named on the command line. */
  readonly discovered: boolean;
  /** The content as UTF-8 (invalid bytes become U+FFFD); undefined when the file cannot be read. */
  readonly text?: string;
  /** A directory that could not be listed (permission denied, removed while walking). */
  readonly unreadableDirectory?: boolean;
  /** The file's YAML documents, when the reader thread has parsed it (js-yaml, ballast's schema). */
  readonly documents?: unknown[];
}

/** Which file names a directory walk picks up, as regular-expression sources (they cross to the reader thread). */
export interface WalkPatterns {
  readonly manifest: string;
  readonly dropIn: string;
  readonly skippedDirectories: readonly string[];
}

/**
 * Walks the paths and reads every file found, calling `emit` for each in order. Directories
 * are walked recursively with their entries sorted, so every run reports in the same order.
 * Symbolic links inside a directory are not followed (as git and ripgrep do): no loops, and no
 * linting of what lies outside the tree; a link named on the command line is followed.
 *
 * It runs on the reader thread from its source text, so it uses nothing from this module's scope
 * (and must not be instrumented for coverage: the counters would not exist there).
 */
/* istanbul ignore next */
function walkAndRead(paths: readonly string[], patterns: WalkPatterns, emit: (file: ReadFile) => void): void {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const fsModule = require('fs') as typeof import('fs');
  const pathModule = require('path') as typeof import('path');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const manifest = new RegExp(patterns.manifest, 'i');
  const dropIn = new RegExp(patterns.dropIn, 'i');
  const skipped = new Set(patterns.skippedDirectories);
  const read = (file: string, discovered: boolean) => {
    let text: string | undefined;
    try {
      // One call, the fastest read in Node.
      text = fsModule.readFileSync(file, 'utf8');
    } catch {
      text = undefined;
    }
    emit({ path: file, discovered, text });
  };
  const walk = (dir: string) => {
    let entries: import('fs').Dirent[];
    try {
      entries = fsModule.readdirSync(dir, { withFileTypes: true });
    } catch {
      emit({ path: dir, discovered: false, unreadableDirectory: true });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = pathModule.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skipped.has(entry.name)) walk(full);
      } else if (entry.isFile() && (manifest.test(entry.name) || dropIn.test(entry.name))) {
        read(full, true);
      }
    }
  };
  for (const given of paths) {
    if (given === '-') emit({ path: given, discovered: false });
    else if (fsModule.statSync(given, { throwIfNoEntry: false })?.isDirectory()) walk(given);
    else read(given, false);
  }
}

/** The reader thread posts files in batches of about this many characters: few messages, early parsing. */
const BATCH_CHARACTERS = 256 * 1024;

/** Who took a file, in the shared claim table: nobody yet, the main thread, the reader thread. */
const UNCLAIMED = 0;
const MAIN_THREAD = 1;
const READER_THREAD = 2;

/**
 * The reader thread: walks and reads (posting the files in order, in batches), then parses files
 * from the end of the list while the main thread parses from the front, until they meet. Each file
 * is claimed in a shared table with compare-and-exchange, so exactly one thread parses it; the
 * table is created once the number of files is known, and the main thread first marks the files
 * it has already taken. Parsed documents cross by structured clone, which keeps what JSON would
 * lose (NaN, binary, aliases as shared objects). A file the reader thread cannot parse goes back
 * to the main thread, which reports it exactly as it would have. After every post the thread
 * bumps `signal`, which the main thread waits on.
 */
const READER_THREAD_SOURCE = `
const { workerData } = require('worker_threads');
const { port, paths, patterns, jsYamlPath } = workerData;
const signal = new Int32Array(workerData.signal);
const post = (message) => { port.postMessage(message); Atomics.add(signal, 0, 1); Atomics.notify(signal, 0); };
// Documents nested too deeply to clone go back unparsed, one by one, so the rest still crosses.
const postParsed = (parsed) => {
  try { post({ parsed }); } catch {
    for (const item of parsed) { try { post({ parsed: [item] }); } catch { post({ parsed: [{ index: item.index }] }); } }
  }
};
const walkAndRead = ${walkAndRead.toString()};
const kubernetesYamlSchema = ${kubernetesYamlSchema.toString()};
try {
  const files = [];
  let batch = [];
  let size = 0;
  walkAndRead(paths, patterns, (file) => {
    files.push(file);
    batch.push(file);
    size += file.text === undefined ? 0 : file.text.length;
    if (size >= ${BATCH_CHARACTERS}) { post({ files: batch }); batch = []; size = 0; }
  });
  post({ files: batch });
  const claims = new Int32Array(new SharedArrayBuffer(4 * (files.length + 1)));
  post({ claims: claims.buffer });
  while (Atomics.wait(claims, files.length, 0, 1000) === 'timed-out');
  const yaml = require(jsYamlPath);
  const schema = kubernetesYamlSchema(yaml);
  const manifest = new RegExp(patterns.manifest, 'i');
  let parsed = [];
  size = 0;
  for (let index = files.length - 1; index >= 0; index--) {
    if (Atomics.compareExchange(claims, index, ${UNCLAIMED}, ${READER_THREAD}) !== ${UNCLAIMED}) break;
    const file = files[index];
    let documents;
    if (file.text !== undefined && manifest.test(file.path)) {
      try { documents = yaml.loadAll(file.text, undefined, { schema }); } catch { documents = undefined; }
    }
    parsed.push({ index, documents });
    size += file.text === undefined ? 0 : file.text.length;
    if (size >= ${BATCH_CHARACTERS} / 4) { postParsed(parsed); parsed = []; size = 0; }
  }
  postParsed(parsed);
  post({ done: true });
} catch (error) {
  post({ error: error instanceof Error ? error.message : String(error) });
}
`;

type ReaderMessage =
  | { files: ReadFile[] }
  | { claims: SharedArrayBuffer }
  | { parsed: Array<{ index: number; documents?: unknown[] }> }
  | { done: true }
  | { error: string };

/** A failure of the reader itself (not of a file): the CLI reports it as a tool problem. */
export class ReaderError extends Error {}

/**
 * Every file under `paths`, in batches, in report order. When a directory is among the paths, a
 * reader thread walks and reads while the caller parses the batches it already has, and then
 * parses files from the end of the list itself (they arrive with `documents`): on 26,000 files the
 * file-system calls took a fifth of a single-threaded lint, and sharing the parse took the load
 * another 5-7% down. Files named one by one, and small trees, are read on the calling thread:
 * starting the thread costs about 40 ms, more than it saves below a thousand or so files.
 */
export async function* readFiles(
  paths: readonly string[],
  patterns: WalkPatterns,
  options: ReadOptions = {},
): AsyncGenerator<readonly ReadFile[]> {
  if (!hasLargeDirectory(paths, patterns, options.threadAboveEntries ?? SMALL_TREE_ENTRIES)) {
    const files: ReadFile[] = [];
    walkAndRead(paths, patterns, (file) => files.push(file));
    yield files;
    return;
  }
  yield* readOnThread(paths, patterns);
}

/** The caller parses between batches: small ones let it take the reader thread's news often. */
const FILES_PER_BATCH = 32;

async function* readOnThread(paths: readonly string[], patterns: WalkPatterns): AsyncGenerator<readonly ReadFile[]> {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(READER_THREAD_SOURCE, {
    eval: true,
    workerData: { port: port2, signal: signal.buffer, paths, patterns, jsYamlPath: require.resolve('js-yaml') },
    transferList: [port2],
  });
  let failure: Error | undefined;
  let exited = false;
  worker.on('error', (error) => {
    failure = new ReaderError(`reading the files failed: ${error.message}`);
  });
  worker.on('exit', () => {
    exited = true;
  });

  /** Files in order; a slot is emptied once handed out, so the text can be collected. */
  const files: Array<ReadFile | undefined> = [];
  const parsedByReader = new Map<number, unknown[] | undefined>();
  let claims: Int32Array | undefined;
  let done = false;
  let next = 0;
  /** The first file the reader thread took: it and every later one are parsed there. */
  let readerFrom: number | undefined;

  const receive = (): boolean => {
    let received: { message: unknown } | undefined;
    try {
      received = receiveMessageOnPort(port1);
    } catch {
      // Documents nested deeper than this thread's stack can rebuild: the message is dropped, and
      // the files it held, absent from parsedByReader, are parsed here from their text.
      return true;
    }
    if (!received) return false;
    const message = received.message as ReaderMessage;
    if ('files' in message) files.push(...message.files);
    else if ('claims' in message) {
      claims = new Int32Array(message.claims);
      for (let index = 0; index < next; index++) claims[index] = MAIN_THREAD;
      Atomics.store(claims, claims.length - 1, 1);
      Atomics.notify(claims, claims.length - 1);
    } else if ('parsed' in message) {
      for (const { index, documents } of message.parsed) parsedByReader.set(index, documents);
    } else if ('done' in message) done = true;
    else failure = new ReaderError(`reading the files failed: ${message.error}`);
    return true;
  };

  /** Blocks until the reader thread posts (the caller has nothing else to do), letting thread events in now and then. */
  const waitForNews = async (): Promise<void> => {
    const seen = Atomics.load(signal, 0);
    if (receive()) return;
    if (Atomics.wait(signal, 0, seen, 50) !== 'timed-out') return;
    await new Promise((resolve) => setImmediate(resolve));
    if (receive()) return;
    if (failure) throw failure;
    if (exited) throw new ReaderError('the file reader stopped before it had read every file');
  };

  try {
    for (;;) {
      while (receive());
      if (failure) throw failure;
      const batch: ReadFile[] = [];
      while (readerFrom === undefined && next < files.length && batch.length < FILES_PER_BATCH) {
        if (claims && Atomics.compareExchange(claims, next, UNCLAIMED, MAIN_THREAD) !== UNCLAIMED) {
          readerFrom = next;
        } else {
          batch.push(files[next] as ReadFile);
          files[next++] = undefined;
        }
      }
      if (batch.length > 0) {
        yield batch;
        continue;
      }
      if (!done) {
        await waitForNews();
        continue;
      }
      // The reader thread is done: what it took comes back parsed (or, where it could not parse,
      // as text for the caller), in order after the caller's share.
      const rest: ReadFile[] = [];
      for (let index = readerFrom ?? next; index < files.length; index++) {
        const file = files[index] as ReadFile;
        const documents = parsedByReader.get(index);
        rest.push(documents === undefined ? file : { path: file.path, discovered: file.discovered, documents });
      }
      if (rest.length > 0) yield rest;
      return;
    }
  } finally {
    port1.close();
    void worker.terminate();
  }
}

export interface ReadOptions {
  /** Directory entries above which the reader thread is used. @default 1000 */
  readonly threadAboveEntries?: number;
}

const SMALL_TREE_ENTRIES = 1000;

/** True when the directories among `paths` hold more than `limit` entries (counting stops there). */
function hasLargeDirectory(paths: readonly string[], patterns: WalkPatterns, limit: number): boolean {
  let entries = 0;
  const pending = paths.filter(
    (given) => given !== '-' && fs.statSync(given, { throwIfNoEntry: false })?.isDirectory(),
  );
  while (pending.length > 0 && entries <= limit) {
    const dir = pending.pop() as string;
    let listed: fs.Dirent[];
    try {
      listed = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // the walk reports it
    }
    entries += listed.length;
    for (const entry of listed) {
      if (entry.isDirectory() && !patterns.skippedDirectories.includes(entry.name))
        pending.push(`${dir}/${entry.name}`);
    }
  }
  return entries > limit;
}

import * as fs from 'fs';
import { Worker } from 'worker_threads';

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

/**
 * What the reader thread runs: `walkAndRead`, posting batches, then `null` when it is done. A
 * failure is posted as `{ error }` so the caller can report it.
 */
const READER_THREAD_SOURCE = `
const { parentPort, workerData } = require('worker_threads');
const walkAndRead = ${walkAndRead.toString()};
let batch = [];
let size = 0;
try {
  walkAndRead(workerData.paths, workerData.patterns, (file) => {
    batch.push(file);
    size += file.text === undefined ? 0 : file.text.length;
    if (size >= ${BATCH_CHARACTERS}) { parentPort.postMessage(batch); batch = []; size = 0; }
  });
  parentPort.postMessage(batch);
  parentPort.postMessage(null);
} catch (error) {
  parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
`;

/** A failure of the reader itself (not of a file): the CLI reports it as a tool problem. */
export class ReaderError extends Error {}

/**
 * Every file under `paths`, in batches, in report order. When a directory is among the paths,
 * a worker thread walks and reads while the caller parses the batches it already has: on a tree
 * of 26,000 files the file-system calls took about a fifth of a single-threaded lint. Files
 * named one by one are read on the calling thread, which saves starting a thread for them.
 */
export async function* readFiles(paths: readonly string[], patterns: WalkPatterns): AsyncGenerator<readonly ReadFile[]> {
  if (!paths.some((given) => given !== '-' && isDirectory(given))) {
    const files: ReadFile[] = [];
    walkAndRead(paths, patterns, (file) => files.push(file));
    yield files;
    return;
  }
  yield* readOnThread(paths, patterns);
}

async function* readOnThread(paths: readonly string[], patterns: WalkPatterns): AsyncGenerator<readonly ReadFile[]> {
  const worker = new Worker(READER_THREAD_SOURCE, { eval: true, workerData: { paths, patterns } });
  const queue: Array<ReadFile[] | null> = [];
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  worker.on('message', (message: ReadFile[] | null | { error: string }) => {
    if (message !== null && !Array.isArray(message)) failure = new ReaderError(`reading the files failed: ${message.error}`);
    else queue.push(message);
    notify();
  });
  worker.on('error', (error) => {
    failure = new ReaderError(`reading the files failed: ${error.message}`);
    notify();
  });
  worker.on('exit', () => {
    failure ??= new ReaderError('the file reader stopped before it had read every file');
    notify();
  });
  try {
    for (;;) {
      const batch = queue.shift();
      if (batch === null) return;
      if (batch !== undefined) {
        yield batch;
        continue;
      }
      // Messages that arrived while the caller was parsing are delivered before `exit`, so an
      // empty queue with a failure set means nothing more will come.
      if (failure) throw failure;
      await new Promise<void>((resolve) => { wake = resolve; });
    }
  } finally {
    void worker.terminate();
  }
}

function isDirectory(file: string): boolean {
  return fs.statSync(file, { throwIfNoEntry: false })?.isDirectory() === true;
}

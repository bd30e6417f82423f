#!/usr/bin/env node
import { run } from './program';

// A reader that stops early (`ballast lint | head`) closes the pipe: what is left to print has no
// reader, and that is no error of ballast's. The run ends as it would have, with its own exit code.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    // A bug in ballast, not a user mistake: those are reported by `run` with exit code 2.
    console.error(error instanceof Error ? error.stack : String(error));
    process.exitCode = 2;
  },
);

#!/usr/bin/env node
import { run } from './program';

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

import * as fs from 'fs';
import * as path from 'path';
import { App, YamlOutputType } from 'cdk8s';
import { BallastGate } from './ballast-gate';
import { NodeFilesOutput, writeNodeFiles } from './node-files-output';
import { isBallastUserError } from './prop-error';

/** Where synthOrExit reports and how it stops; the defaults are the process's. */
export interface SynthOrExitIo {
  /** @default console.error */
  readonly print?: (text: string) => void;
  /** @default process.exit */
  readonly exit?: (code: number) => void;
}

/**
 * Builds (when given a function) and synthesizes the app, then writes its node files. A user's
 * mistake — invalid construct props while building, or a refusal by the gate or any cdk8s
 * validation — is printed as it is, without a stack trace, and the process exits 1. Anything else
 * (a bug) is thrown with its trace.
 *
 * Before synthesizing it removes what a previous run wrote into the outdir (manifests ending in
 * the app's output extension, `construct-metadata.json`, the node-file directories of this app's
 * constructs), and nothing else: a refused synth leaves no stale manifests that a later `kubectl apply -f dist/` would
 * pick up, and a chart removed from the app leaves no file behind. `cdk8s synth` empties the
 * outdir itself; this covers running the app directly.
 *
 * Use it as the last line of a cdk8s app's `main.ts`: `synthOrExit(() => buildApp())`.
 */
export function synthOrExit(app: App | (() => App), io: SynthOrExitIo = {}): void {
  const print = io.print ?? ((text: string) => console.error(text));
  const exit = io.exit ?? ((code: number) => process.exit(code));
  let built: App;
  try {
    built = typeof app === 'function' ? app() : app;
  } catch (error) {
    if (!isBallastUserError(error)) throw error;
    print(error.message);
    exit(1);
    return;
  }
  removePreviousOutput(built);
  try {
    const gate = BallastGate.find(built);
    if (gate) gate.withinSynth(() => built.synth());
    else built.synth();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!isBallastUserError(error) && !message.startsWith('Validation failed')) throw error;
    print(message);
    exit(1);
    return;
  }
  writeNodeFiles(built);
}

/** Removes the files a previous synth of this app wrote, leaving anything else in the outdir alone. */
export function removePreviousOutput(app: App): void {
  const outdir = app.outdir;
  if (!fs.existsSync(outdir)) return;
  const extension = app.outputFileExtension;
  // Only FOLDER_PER_CHART_FILE_PER_RESOURCE writes into sub-directories (one per chart).
  const perChartFolders = app.yamlOutputType === YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE;
  for (const entry of fs.readdirSync(outdir, { withFileTypes: true })) {
    const full = path.join(outdir, entry.name);
    if (entry.isFile() && entry.name.endsWith(extension)) fs.rmSync(full, { force: true });
    if (entry.isDirectory() && perChartFolders) {
      for (const inner of fs.readdirSync(full, { withFileTypes: true })) {
        if (inner.isFile() && inner.name.endsWith(extension)) fs.rmSync(path.join(full, inner.name), { force: true });
      }
    }
  }
  fs.rmSync(path.join(outdir, 'construct-metadata.json'), { force: true });
  for (const directory of NodeFilesOutput.find(app)?.directoryNames ?? []) {
    fs.rmSync(path.join(outdir, directory), { recursive: true, force: true });
  }
}

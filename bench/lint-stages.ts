import * as path from 'path';

const LIB = path.resolve(__dirname, '..', 'lib');

/**
 * The first stages of `ballast lint`, each run alone as a whole process on the paths it is given:
 * - `read-and-parse`: what `loadManifests` does (walk, read, parse, keep every object compactly);
 * - `rules`: that, then every rule over the objects (`validateObjects`), as lint runs them.
 * What lint adds after the rules (lines of findings, fixes, the report) is lint's own time less the
 * second stage's. Each stage's time and peak memory, against the parse-only pass, show where lint's
 * cost is and which of its parts a redesign must change. Needs the compiled library (`npm run build`).
 */
export type LintStage = 'read-and-parse' | 'rules';

/** A node program (for `node -e`) that runs lint up to and including `stage`. */
export function lintStageProgram(stage: LintStage): string {
  const load = `const { loadManifests } = require(${JSON.stringify(path.join(LIB, 'cli', 'load-manifests.js'))});
const manifests = loadManifests(process.argv.slice(1));`;
  if (stage === 'read-and-parse') return load;
  return `${load}
const { validationInputs } = require(${JSON.stringify(path.join(LIB, 'cli', 'lint-command.js'))});
const { readLintOptions } = require(${JSON.stringify(path.join(LIB, 'cli', 'config.js'))});
const { validateObjects } = require(${JSON.stringify(path.join(LIB, 'validators', 'index.js'))});
validateObjects(validationInputs(manifests), readLintOptions(undefined, process.cwd(), undefined));`;
}

/**
 * `npm run bench`: every benchmark of the project, printed as a report. Numbers are measured
 * here, on the machine that runs it; no test asserts a time.
 */
import { runSynthBench } from './synth-bench';

runSynthBench();
require('./lint-bench').runLintBench(); // eslint-disable-line @typescript-eslint/no-require-imports
require('./input-shapes-bench').runInputShapesBench(); // eslint-disable-line @typescript-eslint/no-require-imports
require('./real-world-bench').runRealWorldBench(); // eslint-disable-line @typescript-eslint/no-require-imports

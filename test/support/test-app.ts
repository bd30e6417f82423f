import { App, Chart, Testing } from 'cdk8s';
import { scratchDir } from './scratch-dir';

/** cdk8s's `Testing.app()` with its output directory removed when the test file ends (cdk8s leaves its own behind). */
export function testApp(): App {
  return Testing.app({ outdir: scratchDir('ballast-app') });
}

/** cdk8s's `Testing.chart()`, in a `testApp()`. */
export function testChart(): Chart {
  return new Chart(testApp(), 'test');
}

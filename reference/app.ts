import { App, AppProps } from 'cdk8s';
import { BallastGate } from '../constructs';
import { LeaderChart } from './leader-chart';
import { RbdChart } from './rbd-chart';
import { NfsChart } from './nfs-chart';
import { NodeEviction } from './node-eviction';
import { StaticVolumeChart } from './static-volume-chart';

/**
 * The reference app: one of every ballast construct, as a platform team would write it. `main.ts`
 * synthesizes it with `cdk8s synth`; the tests synthesize it in memory.
 */
export function buildReferenceApp(props: AppProps = {}): App {
  const app = new App(props);
  new BallastGate(app, { kubernetesVersion: '1.27' });
  new StaticVolumeChart(app, 'static-volume');
  new NfsChart(app, 'nfs');
  new RbdChart(app, 'rbd');
  new LeaderChart(app, 'leader');
  new NodeEviction(app, 'node-eviction');
  return app;
}

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { BallastGate } from '../constructs';
import { formatMs, medianMs } from './measure';

const WORKLOADS = 200;
const RUNS = 7;

/**
 * The objects of one stateful workload (StatefulSet with a claim template, headless Service,
 * PodDisruptionBudget), written as plain cdk8s ApiObjects: the baseline.
 */
function addPlainWorkload(scope: Construct, name: string): void {
  const labels = { app: name };
  new ApiObject(scope, `${name}-svc`, {
    apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'db' },
    spec: { clusterIP: 'None', selector: labels, ports: [{ name: 'pg', port: 5432 }] },
  });
  new ApiObject(scope, `${name}-pdb`, {
    apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name, namespace: 'db' },
    spec: { maxUnavailable: 1, selector: { matchLabels: labels } },
  });
  new ApiObject(scope, `${name}-sts`, {
    apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name, namespace: 'db' },
    spec: {
      serviceName: name, replicas: 3, selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          terminationGracePeriodSeconds: 60,
          securityContext: { fsGroup: 999 },
          containers: [{
            name: 'postgres', image: 'postgres:16',
            resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { memory: '1Gi' } },
            volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql/data' }],
          }],
        },
      },
      volumeClaimTemplates: [{
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'ceph-rbd', resources: { requests: { storage: '20Gi' } } },
      }],
    },
  });
}

/** Builds the app; `gated` adds the ballast gate over the same objects. */
export type WorkloadBuilder = (scope: Construct, name: string) => void;

function buildApp(outdir: string, addWorkload: WorkloadBuilder, gated: boolean): { app: App; gate?: BallastGate } {
  const app = new App({ outdir });
  const gate = gated ? new BallastGate(app, { log: () => undefined }) : undefined;
  const chart = new Chart(app, 'bench', { disableResourceNameHashes: true });
  for (let i = 0; i < WORKLOADS; i++) addWorkload(chart, `db-${i}`);
  return { app, gate };
}

/** `npm run bench`, synth part: ballast-built app versus plain ApiObjects, and the gate's share. */
export function runSynthBench(ballastWorkload: WorkloadBuilder = addPlainWorkload, label = 'plain ApiObjects + BallastGate'): void {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'ballast-bench-'));
  const plain = medianMs(RUNS, () => buildApp(outdir, addPlainWorkload, false).app.synth());
  const ballast = medianMs(RUNS, () => buildApp(outdir, ballastWorkload, true).app.synth());
  const validation = medianMs(RUNS, () => {
    const { gate } = buildApp(outdir, ballastWorkload, true);
    gate!.validateApp();
  });
  fs.rmSync(outdir, { recursive: true, force: true });
  console.log(`synth, ${WORKLOADS} stateful workloads, median of ${RUNS} runs`);
  console.log(`  plain cdk8s ApiObjects:          ${formatMs(plain)}`);
  console.log(`  ballast (${label}): ${formatMs(ballast)}`);
  console.log(`  ratio ballast / plain:           ${(ballast / plain).toFixed(2)}x   (target <= 1.30x)`);
  console.log(`  validation (gate, incl. toJson): ${formatMs(validation)} = ${((validation / ballast) * 100).toFixed(1)}% of ballast synth   (target <= 15%)`);
}

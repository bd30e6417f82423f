import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, Size } from 'cdk8s';
import { Cpu } from 'cdk8s-plus-27';
import { Construct } from 'constructs';
import { BallastGate, CephRbdStorageClass, RbdDataVolume, RbdStatefulSet } from '../constructs';
import { validateObjects } from '../validators';
import { PairedTiming, after, formatMs, medianMs, pairedMs, whole } from './measure';

const WORKLOADS = 200;
const RUNS = 15;

const STORAGE_CLASS = 'ceph-rbd';
const labelsOf = (name: string) => ({ 'app.kubernetes.io/name': name });

/** The StorageClass every workload of a chart uses, created with the chart's first workload. */
function sharedRbdClass(scope: Construct): CephRbdStorageClass {
  const existing = scope.node.tryFindChild(STORAGE_CLASS);
  if (existing instanceof CephRbdStorageClass) return existing;
  return new CephRbdStorageClass(scope, STORAGE_CLASS, {
    name: STORAGE_CLASS,
    clusterId: 'rook-ceph',
    pool: 'replicapool',
    provisionerSecret: { name: 'csi-rbd-provisioner', namespace: 'ceph-csi' },
    nodeStageSecret: { name: 'csi-rbd-node', namespace: 'ceph-csi' },
  });
}

/** One stateful workload built with ballast: `RbdStatefulSet` on a shared `CephRbdStorageClass`. */
function addBallastWorkload(scope: Construct, name: string): void {
  new RbdStatefulSet(scope, name, {
    name,
    namespace: 'db',
    replicas: 3,
    storageClass: sharedRbdClass(scope),
    storage: Size.gibibytes(20),
    data: RbdDataVolume.filesystem('/var/lib/postgresql/data'),
    runAsUser: 999,
    fsGroup: 999,
    container: {
      name: 'postgres',
      image: 'postgres:16',
      ports: [{ name: 'pg', port: 5432 }],
      resources: { cpu: Cpu.millis(500), memory: Size.gibibytes(1) },
      readOnlyRootFilesystem: false,
    },
  });
}

/**
 * The same objects as `addBallastWorkload` (StorageClass once per chart, headless Service,
 * StatefulSet with a claim template, PodDisruptionBudget), written as plain cdk8s ApiObjects: the
 * baseline.
 */
function addPlainWorkload(scope: Construct, name: string): void {
  if (!scope.node.tryFindChild(STORAGE_CLASS)) {
    new ApiObject(scope, STORAGE_CLASS, {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: STORAGE_CLASS },
      provisioner: 'rbd.csi.ceph.com',
      parameters: {
        clusterID: 'rook-ceph',
        pool: 'replicapool',
        imageFeatures: 'layering',
        'csi.storage.k8s.io/fstype': 'ext4',
        'csi.storage.k8s.io/provisioner-secret-name': 'csi-rbd-provisioner',
        'csi.storage.k8s.io/provisioner-secret-namespace': 'ceph-csi',
        'csi.storage.k8s.io/controller-expand-secret-name': 'csi-rbd-provisioner',
        'csi.storage.k8s.io/controller-expand-secret-namespace': 'ceph-csi',
        'csi.storage.k8s.io/node-stage-secret-name': 'csi-rbd-node',
        'csi.storage.k8s.io/node-stage-secret-namespace': 'ceph-csi',
      },
      reclaimPolicy: 'Retain',
      allowVolumeExpansion: true,
      volumeBindingMode: 'WaitForFirstConsumer',
    });
  }
  const labels = labelsOf(name);
  const metadata = { name, namespace: 'db', labels };
  new ApiObject(scope, `${name}-svc`, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata,
    spec: {
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      selector: labels,
      ports: [{ name: 'pg', port: 5432, targetPort: 'pg' }],
    },
  });
  new ApiObject(scope, `${name}-sts`, {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata,
    spec: {
      serviceName: name,
      replicas: 3,
      podManagementPolicy: 'OrderedReady',
      selector: { matchLabels: labels },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      template: {
        metadata: { labels },
        spec: {
          automountServiceAccountToken: false,
          terminationGracePeriodSeconds: 60,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: 999,
            runAsGroup: 999,
            fsGroup: 999,
            fsGroupChangePolicy: 'OnRootMismatch',
          },
          affinity: {
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [
                { labelSelector: { matchLabels: labels }, topologyKey: 'kubernetes.io/hostname' },
              ],
            },
          },
          containers: [
            {
              name: 'postgres',
              image: 'postgres:16',
              ports: [{ name: 'pg', containerPort: 5432 }],
              resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { memory: '1Gi' } },
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: false,
                capabilities: { drop: ['ALL'] },
              },
              volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql/data' }],
            },
          ],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data', labels },
          spec: {
            accessModes: ['ReadWriteOncePod'],
            storageClassName: STORAGE_CLASS,
            volumeMode: 'Filesystem',
            resources: { requests: { storage: '20Gi' } },
          },
        },
      ],
    },
  });
  new ApiObject(scope, `${name}-pdb`, {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata,
    spec: { maxUnavailable: 1, selector: { matchLabels: labels } },
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
export function runSynthBench(
  ballastWorkload: WorkloadBuilder = addBallastWorkload,
  label = 'RbdStatefulSet + BallastGate',
): void {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'ballast-bench-'));
  const endToEnd = pairedMs(
    RUNS,
    whole(() => buildApp(outdir, addPlainWorkload, false).app.synth()),
    whole(() => buildApp(outdir, ballastWorkload, true).app.synth()),
  );
  // What `synthOrExit(app)` (the README's last line of main.ts) runs: the synth within the gate's
  // withinSynth, where the app is serialized for validation once, not once more per chart.
  const withinSynth = ({ app, gate }: { app: App; gate?: BallastGate }) => gate!.withinSynth(() => app.synth());
  const endToEndWithinSynth = pairedMs(
    RUNS,
    whole(() => buildApp(outdir, addPlainWorkload, false).app.synth()),
    whole(() => withinSynth(buildApp(outdir, ballastWorkload, true))),
  );
  // The gate's cost inside a real synth: the same ballast app synthesized without its gate (ballast
  // constructs install one, so it is taken out after building) and with it. Only synth() is timed.
  const synth = (app: App) => app.synth();
  const ungated = after(() => {
    const { app } = buildApp(outdir, ballastWorkload, true);
    app.node.tryRemoveChild('BallastGate');
    return app;
  }, synth);
  const gateCost = pairedMs(
    RUNS,
    ungated,
    after(() => buildApp(outdir, ballastWorkload, true).app, synth),
  );
  const gateCostWithinSynth = pairedMs(
    RUNS,
    ungated,
    after(() => buildApp(outdir, ballastWorkload, true), withinSynth),
  );
  const standalone = medianMs(
    RUNS,
    after(
      () => buildApp(outdir, ballastWorkload, true).gate!,
      (gate) => gate.validateApp(),
    ),
  );
  const serialized = buildApp(outdir, ballastWorkload, true)
    .app.charts.flatMap((chart) => chart.toJson())
    .map((object) => ({ object }));
  const rules = medianMs(
    RUNS,
    whole(() => validateObjects(serialized)),
  );
  fs.rmSync(outdir, { recursive: true, force: true });
  assertSameObjects(outdir, ballastWorkload);
  const share = (ms: number, of: PairedTiming = gateCost) => `${((Math.max(0, ms) / of.second) * 100).toFixed(1)}%`;
  console.log(`synth, ${WORKLOADS} stateful workloads, ${RUNS} alternating pairs (medians)`);
  console.log(`  plain cdk8s ApiObjects (build + synth):  ${formatMs(endToEnd.first)}`);
  console.log(
    `  ballast (${label}), synthOrExit: ${formatMs(endToEndWithinSynth.second)} = ${endToEndWithinSynth.ratio.toFixed(2)}x plain   (target <= 1.30x)`,
  );
  console.log(
    `    validation during synth: ${formatMs(Math.max(0, gateCostWithinSynth.difference))} = ${share(gateCostWithinSynth.difference, gateCostWithinSynth)} of synth with the gate   (target <= 15%)`,
  );
  console.log(
    `  ballast (${label}), a plain app.synth(): ${formatMs(endToEnd.second)} = ${endToEnd.ratio.toFixed(2)}x plain   (target <= 1.30x)`,
  );
  console.log(
    `    validation during synth: ${formatMs(Math.max(0, gateCost.difference))} = ${share(gateCost.difference)} of synth with the gate (${formatMs(gateCost.second)}; without it ${formatMs(gateCost.first)})   (target <= 15%): ` +
      'cdk8s validates the app again for every chart it writes, and without hooking into cdk8s the gate must serialize it again to know nothing changed',
  );
  console.log(`    rules alone on ready JSON:             ${formatMs(rules)} = ${share(rules)}`);
  console.log(
    `    standalone gate.validateApp():         ${formatMs(standalone)} (serializes every object itself; outside synth)`,
  );
}

/** The comparison is only fair if both sides write the same objects: checked on every run. */
function assertSameObjects(outdir: string, ballastWorkload: WorkloadBuilder): void {
  const objectsOf = (builder: WorkloadBuilder, gated: boolean) => {
    const { app } = buildApp(outdir, builder, gated);
    return JSON.stringify(app.charts.flatMap((chart) => chart.toJson()));
  };
  if (objectsOf(addPlainWorkload, false) !== objectsOf(ballastWorkload, true)) {
    throw new Error(
      'bench: the plain baseline and the ballast workload synthesize different objects; fix addPlainWorkload',
    );
  }
}

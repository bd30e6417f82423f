import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, Chart, Duration, Size, Testing } from 'cdk8s';
import * as plus from 'cdk8s-plus-27';
import { Cpu, k8s } from 'cdk8s-plus-27';
import * as jsYaml from 'js-yaml';
import {
  BallastGate,
  CephRbdStorageClass,
  KubeletEvictionDropIns,
  LeaderLease,
  NfsCsiStorageClass,
  NfsVolume,
  RbdDataVolume,
  RbdStatefulSet,
} from '../../constructs';
import { NFS_CLIENT } from '../../validators';
import { buildReferenceApp } from '../../reference/app';
import { scratchDir } from '../support/scratch-dir';

type Manifest = Record<string, any>;

/** A safety field every synthesized form must carry: returns what is missing, [] when all is there. */
type SafetyCheck = (objects: Manifest[]) => string[];

const podSpec = (object: Manifest) =>
  object.kind === 'CronJob' ? object.spec.jobTemplate.spec.template.spec : object.spec.template.spec;

/** The workload mounts the NFS volume and every required node-selector term requires the NFS client. */
const nfsSafety =
  (workloadName: string, volumeName: string): SafetyCheck =>
  (objects) => {
    const workload = objects.find((o) => o.metadata?.name === workloadName && o.spec?.template);
    if (!workload) return [`no workload ${workloadName}`];
    const spec = podSpec(workload);
    const missing: string[] = [];
    if (!(spec.volumes ?? []).some((v: Manifest) => v.name === volumeName)) missing.push(`volume ${volumeName}`);
    const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
    if (terms.length === 0) missing.push('required node affinity');
    terms.forEach((term: Manifest, i: number) => {
      if (
        !(term.matchExpressions ?? []).some(
          (e: Manifest) =>
            e.key === NFS_CLIENT.label.key && e.operator === 'In' && e.values.includes(NFS_CLIENT.label.value),
        )
      ) {
        missing.push(`nfs-client in nodeSelectorTerms[${i}]`);
      }
    });
    return missing;
  };

const noNamespaceOnClusterScoped: SafetyCheck = (objects) =>
  objects
    .filter((o) => ['PersistentVolume', 'StorageClass'].includes(o.kind) && o.metadata?.namespace !== undefined)
    .map((o) => `${o.kind} ${o.metadata.name} has namespace ${o.metadata.namespace}`);

const leaseEnvSafety =
  (workloadName: string): SafetyCheck =>
  (objects) => {
    const workload = objects.find((o) => o.metadata?.name === workloadName && o.spec?.template);
    if (!workload) return [`no workload ${workloadName}`];
    return podSpec(workload).containers.flatMap((c: Manifest) =>
      (c.env ?? []).some((e: Manifest) => e.name === 'LEADER_ELECTION_IDENTITY') ? [] : [`lease env in ${c.name}`],
    );
  };

const rbdSafety: SafetyCheck = (objects) => {
  const sts = objects.find((o) => o.kind === 'StatefulSet');
  if (!sts) return ['no StatefulSet'];
  const missing: string[] = [];
  if (!SINGLE_NODE_MODES.includes(sts.spec.volumeClaimTemplates?.[0]?.spec?.accessModes?.[0]))
    missing.push('single-node claim');
  if (!objects.some((o) => o.kind === 'PodDisruptionBudget')) missing.push('PodDisruptionBudget');
  if (!sts.spec.template.spec.affinity?.podAntiAffinity) missing.push('host anti-affinity');
  return missing;
};

/** ReadWriteOncePod from 1.29 (the default target is newer), ReadWriteOnce before. */
const SINGLE_NODE_MODES: ReadonlyArray<string | undefined> = ['ReadWriteOnce', 'ReadWriteOncePod'];

interface Case {
  readonly build: () => App;
  readonly safety: SafetyCheck[];
}

function gatedApp(): { app: App; chart: (id: string, namespace?: string) => Chart } {
  const app = new App({ outdir: scratchDir('ballast-stability') });
  new BallastGate(app, { log: () => undefined });
  return { app, chart: (id, namespace) => new Chart(app, id, { namespace, disableResourceNameHashes: true }) };
}

const CASES: Record<string, Case> = {
  'NfsVolume inline in a k8s.KubeDeployment with its own affinity': {
    build: () => {
      const { app, chart } = gatedApp();
      const c = chart('nfs', 'shop');
      const zone = (z: string) => ({
        matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [z] }],
      });
      const deployment = new k8s.KubeDeployment(c, 'app', {
        metadata: { name: 'app' },
        spec: {
          selector: { matchLabels: { app: 'app' } },
          template: {
            metadata: { labels: { app: 'app' } },
            spec: {
              containers: [
                { name: 'app', image: 'nginx:1.27', volumeMounts: [{ name: 'nfs-shared', mountPath: '/data' }] },
              ],
              affinity: {
                nodeAffinity: {
                  requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [zone('a'), zone('b')] },
                },
              },
            },
          },
        },
      });
      new NfsVolume(c, 'shared', { server: 'nfs.example.com', path: '/exports/shared' }).mountIn(deployment);
      return app;
    },
    safety: [nfsSafety('app', 'nfs-shared')],
  },
  'NfsVolume with a claim in a namespaced chart, mounted in a cdk8s-plus Deployment': {
    build: () => {
      const { app, chart } = gatedApp();
      const c = chart('nfs', 'analytics');
      const nfs = new NfsVolume(c, 'reports', {
        server: 'nfs.example.com',
        path: '/exports/reports',
        claim: { namespace: 'analytics' },
      });
      const deployment = new plus.Deployment(c, 'viewer', { metadata: { name: 'viewer' } });
      deployment.addContainer({ image: 'nginx:1.27', securityContext: { user: 101 } });
      deployment.scheduling.attract(plus.Node.labeled(plus.NodeLabelQuery.is('topology.kubernetes.io/zone', 'a')));
      nfs.mountIn(deployment);
      return app;
    },
    safety: [nfsSafety('viewer', 'nfs-reports'), noNamespaceOnClusterScoped],
  },
  'NfsCsiStorageClass in a namespaced chart': {
    build: () => {
      const { app, chart } = gatedApp();
      new NfsCsiStorageClass(chart('csi', 'shop'), 'nfs-csi', { server: 'nfs.example.com', share: '/exports' });
      return app;
    },
    safety: [noNamespaceOnClusterScoped, (objects) => (objects.length === 1 ? [] : ['one StorageClass'])],
  },
  'CephRbdStorageClass and RbdStatefulSet in a namespaced chart': {
    build: () => {
      const { app, chart } = gatedApp();
      const c = chart('db', 'orders');
      const storageClass = new CephRbdStorageClass(c, 'rbd', {
        name: 'ceph-rbd',
        clusterId: 'rook-ceph',
        pool: 'replicapool',
        provisionerSecret: { name: 'csi-rbd-provisioner', namespace: 'ceph-csi' },
        nodeStageSecret: { name: 'csi-rbd-node', namespace: 'ceph-csi' },
      });
      new RbdStatefulSet(c, 'orders', {
        storageClass,
        name: 'orders',
        replicas: 2,
        storage: Size.gibibytes(20),
        data: RbdDataVolume.filesystem('/var/lib/postgresql/data'),
        container: {
          image: 'postgres:16.4',
          resources: { cpu: Cpu.millis(500), memory: Size.gibibytes(1) },
          readOnlyRootFilesystem: false,
        },
      });
      return app;
    },
    safety: [rbdSafety, noNamespaceOnClusterScoped],
  },
  'LeaderLease attached to a cdk8s-plus Deployment': {
    build: () => {
      const { app, chart } = gatedApp();
      const c = chart('leader', 'ops');
      const lease = new LeaderLease(c, 'lock', { name: 'operator', timings: { leaseDuration: Duration.seconds(20) } });
      const deployment = new plus.Deployment(c, 'operator', { containers: [{ image: 'example/operator:1.0' }] });
      lease.grantLeadership(new plus.ServiceAccount(c, 'sa'));
      lease.attachTo(deployment);
      return app;
    },
    safety: [(objects) => leaseEnvSafety(objects.find((o) => o.kind === 'Deployment')?.metadata.name)(objects)],
  },
  'KubeletEvictionDropIns beside a raw ApiObject': {
    build: () => {
      const { app, chart } = gatedApp();
      new KubeletEvictionDropIns(app, 'pool', { pool: 'pool', hard: { 'nodefs.available': '5%' } });
      new ApiObject(chart('raw'), 'cm', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cm' },
        data: { a: 'b' },
      });
      return app;
    },
    safety: [(objects) => (objects.length === 1 ? [] : ['the ConfigMap'])],
  },
  'the reference app': {
    build: () => buildReferenceApp({ outdir: scratchDir('ballast-stability') }),
    safety: [
      nfsSafety('report-viewer', 'nfs-reports'),
      noNamespaceOnClusterScoped,
      rbdOfReference,
      leaseEnvSafety('report-runner'),
    ],
  },
};

/** The reference app's database runs one replica: no anti-affinity is expected there. */
function rbdOfReference(objects: Manifest[]): string[] {
  const sts = objects.find((o) => o.kind === 'StatefulSet');
  return SINGLE_NODE_MODES.includes(sts?.spec.volumeClaimTemplates?.[0]?.spec?.accessModes?.[0])
    ? []
    : ['single-node claim'];
}

function chartsOf(app: App): Chart[] {
  return app.charts;
}

function writtenFiles(app: App): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(app.outdir).sort()) {
    const full = path.join(app.outdir, name);
    if (fs.statSync(full).isFile()) files[name] = fs.readFileSync(full, 'utf8');
  }
  return files;
}

describe('every construct synthesizes the same output however and however often it is synthesized', () => {
  test.each(Object.keys(CASES))('%s', (name) => {
    const { build, safety } = CASES[name]!;
    const app = build();
    const before = chartsOf(app).flatMap((chart) => Testing.synth(chart));
    app.synth();
    const firstFiles = writtenFiles(app);
    app.synth();
    const secondFiles = writtenFiles(app);
    const firstYaml = app.synthYaml();
    const secondYaml = app.synthYaml();
    const after = chartsOf(app).flatMap((chart) => Testing.synth(chart));

    expect(before.length).toBeGreaterThan(0);
    expect(after).toEqual(before);
    expect(secondFiles).toEqual(firstFiles);
    expect(secondYaml).toBe(firstYaml);
    expect(jsYaml.loadAll(firstYaml).filter((doc) => doc !== null)).toEqual(before);
    const fromFiles = Object.values(firstFiles)
      .flatMap((content) => jsYaml.loadAll(content))
      .filter((doc) => doc !== null);
    expect(fromFiles).toEqual(expect.arrayContaining(before));
    expect(fromFiles).toHaveLength(before.length);
    for (const check of safety) expect(check(before)).toEqual([]);
  });

  test('nothing of cdk8s is replaced: no own synth/synthYaml on the app, no own toJson on any object', () => {
    for (const { build } of Object.values(CASES)) {
      const app = build();
      app.synthYaml();
      expect(Object.getOwnPropertyNames(app).filter((key) => ['synth', 'synthYaml', 'toJson'].includes(key))).toEqual(
        [],
      );
      const objects = app.node.findAll().filter((c) => ApiObject.isApiObject(c));
      expect(objects.filter((object) => Object.prototype.hasOwnProperty.call(object, 'toJson'))).toEqual([]);
    }
  });
});

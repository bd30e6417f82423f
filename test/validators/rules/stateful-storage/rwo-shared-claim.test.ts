import { KubeVersion, fixFor, validateObjects } from '../../../../validators';
import { claim, claimVolume, podSpec, workload } from './fixtures';

const RULE = 'rwo-claim-in-rolling-deployment';
const PATH = 'spec.template.spec.volumes[0].persistentVolumeClaim';
const recreate = { replicas: 1, strategy: { type: 'Recreate' } };
const sharedClaim = claim('ferretdb-pv-claim', { accessModes: ['ReadWriteOnce'], storageClassName: 'civo-volume' });

/** The rule's findings for objects given with the file each came from. */
function hits(objects: ReadonlyArray<{ object: unknown; file: string }>) {
  return validateObjects(objects.map(({ object, file }) => ({ object, source: { file } })))
    .findings.filter((finding) => finding.rule === RULE)
    .map((finding) => ({
      name: finding.object.name,
      path: finding.path,
      severity: finding.severity,
      message: finding.message,
    }));
}

describe(`${RULE}: one claim mounted by two workloads`, () => {
  // civo/kubernetes-marketplace ferretdb/app.yaml (held-out-28): Deployments ferretdb-postgres and
  // ferretdb, each Recreate with one replica, both mount claim ferretdb-pv-claim (a Civo block volume).
  const postgres = workload('Deployment', 'ferretdb-postgres', podSpec([claimVolume('ferretdb-pv-claim')]), recreate);
  const ferretdb = workload('Deployment', 'ferretdb', podSpec([claimVolume('ferretdb-pv-claim')]), recreate);

  test('real world: two single-pod Deployments of one file on one ReadWriteOnce block claim: the second is refused', () => {
    const found = hits([
      { object: postgres, file: 'ferretdb/app.yaml' },
      { object: ferretdb, file: 'ferretdb/app.yaml' },
      { object: sharedClaim, file: 'ferretdb/app.yaml' },
    ]);
    expect(found).toEqual([{ name: 'ferretdb', path: PATH, severity: 'error', message: expect.any(String) }]);
    expect(found[0]?.message).toContain('Deployment ferretdb-postgres in the same file mounts it too');
  });

  test('ballast fix leaves it to a person, saying why: the strategy is Recreate already', () => {
    const [finding] = validateObjects(
      [postgres, ferretdb, sharedClaim].map((object) => ({ object, source: { file: 'app.yaml' } })),
    ).findings.filter((f) => f.rule === RULE);
    expect(fixFor(finding!, ferretdb as Record<string, unknown>, KubeVersion.parse('1.31'))).toEqual({
      unsafe: expect.stringContaining('another workload mounts the same ReadWriteOnce claim'),
    });
  });

  test('workloads in different files (often alternative examples) are left alone', () => {
    expect(
      hits([
        { object: postgres, file: 'ferretdb/postgres.yaml' },
        { object: ferretdb, file: 'ferretdb/ferretdb.yaml' },
        { object: sharedClaim, file: 'ferretdb/claim.yaml' },
      ]),
    ).toEqual([]);
  });

  describe('a Job or CronJob on a claim a running workload holds: a warning, in any file', () => {
    const CRON_PATH = 'spec.jobTemplate.spec.template.spec.volumes[0].persistentVolumeClaim';
    const cronJob = (pod: Record<string, unknown>) => ({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'nextcloud-cron' },
      spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: pod } } } },
    });
    // skymoore/nextcloud-kubernetes-aws nextcloud/0501_nextcloud_jobs.yml (held-out-52): the cron
    // job mounts the EBS claim the nextcloud Deployment keeps attached, with no affinity to its node.
    const dataClaim = claim('nextcloud-data-claim', { accessModes: ['ReadWriteOnce'], storageClassName: 'gp2' });
    const nextcloud = workload('Deployment', 'nextcloud', podSpec([claimVolume('nextcloud-data-claim')]), recreate);

    test('real world: a CronJob in its own file on the Deployment’s EBS claim is warned, naming the holder', () => {
      const found = hits([
        { object: dataClaim, file: 'nextcloud/0200_pvc.yml' },
        { object: nextcloud, file: 'nextcloud/0300_deployment.yml' },
        { object: cronJob(podSpec([claimVolume('nextcloud-data-claim')])), file: 'nextcloud/0501_nextcloud_jobs.yml' },
      ]);
      expect(found).toEqual([
        { name: 'nextcloud-cron', path: CRON_PATH, severity: 'warning', message: expect.any(String) },
      ]);
      expect(found[0]?.message).toContain('which Deployment nextcloud keeps attached to the node its pod runs on');
    });

    test('ballast fix leaves it to a person, saying why', () => {
      const backup = cronJob(podSpec([claimVolume('nextcloud-data-claim')]));
      const [finding] = validateObjects(
        [dataClaim, nextcloud, backup].map((object) => ({ object, source: { file: 'app.yaml' } })),
      ).findings.filter((f) => f.rule === RULE);
      expect(fixFor(finding!, backup, KubeVersion.parse('1.31'))).toEqual({
        unsafe: expect.stringContaining('a required podAffinity'),
      });
    });

    test('a one-pod Job is warned the same way', () => {
      const job = {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'restore' },
        spec: { template: { spec: podSpec([claimVolume('nextcloud-data-claim')]) } },
      };
      expect(
        hits([
          { object: dataClaim, file: 'a.yaml' },
          { object: nextcloud, file: 'a.yaml' },
          { object: job, file: 'b.yaml' },
        ]),
      ).toEqual([{ name: 'restore', path: PATH, severity: 'warning', message: expect.any(String) }]);
    });

    // sp-202/cloud-native-bigdata-stack archive-v2/legacy-uc-configs/uc-db-patch.yaml (held-out-187): a
    // debug Pod sleeps on the database claim that the Recreate unity-catalog server Deployment holds.
    const ucClaim = claim('unity-catalog-unitycatalog-server-db', { accessModes: ['ReadWriteOnce'] });
    const ucServer = workload(
      'Deployment',
      'unity-catalog-unitycatalog-server',
      podSpec([claimVolume('unity-catalog-unitycatalog-server-db')]),
      recreate,
    );
    const debugPod = (pod: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'uc-db-patch' },
      spec: { ...pod, restartPolicy: 'Never' },
    });

    test('real world: a bare debug Pod on the claim a Deployment holds is warned, naming the holder', () => {
      const found = hits([
        { object: ucClaim, file: 'charts/gen/unity-catalog.yaml' },
        { object: ucServer, file: 'charts/gen/unity-catalog.yaml' },
        {
          object: debugPod(podSpec([claimVolume('unity-catalog-unitycatalog-server-db')])),
          file: 'legacy-uc-configs/uc-db-patch.yaml',
        },
      ]);
      expect(found).toEqual([
        {
          name: 'uc-db-patch',
          path: 'spec.volumes[0].persistentVolumeClaim',
          severity: 'warning',
          message: expect.stringContaining('which Deployment unity-catalog-unitycatalog-server keeps attached'),
        },
      ]);
      expect(found[0]?.message).toContain('schedules this Pod onto that node');
    });

    test('passes a bare Pod no running workload holds the claim of, and one required on the holder’s node', () => {
      const alone = debugPod(podSpec([claimVolume('unity-catalog-unitycatalog-server-db')]));
      expect(
        hits([
          { object: ucClaim, file: 'a.yaml' },
          { object: alone, file: 'b.yaml' },
        ]),
      ).toEqual([]);
      const beside = debugPod({
        ...podSpec([claimVolume('unity-catalog-unitycatalog-server-db')]),
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              {
                labelSelector: { matchLabels: { app: 'unity-catalog-unitycatalog-server' } },
                topologyKey: 'kubernetes.io/hostname',
              },
            ],
          },
        },
      });
      expect(
        hits([
          { object: ucClaim, file: 'a.yaml' },
          { object: ucServer, file: 'a.yaml' },
          { object: beside, file: 'b.yaml' },
        ]),
      ).toEqual([]);
    });

    test('passes a job required on the holder’s node, one no running workload holds, and one on a shared filesystem', () => {
      const onHoldersNode = cronJob({
        ...podSpec([claimVolume('nextcloud-data-claim')]),
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { app: 'nextcloud' } }, topologyKey: 'kubernetes.io/hostname' },
            ],
          },
        },
      });
      const alone = cronJob(podSpec([claimVolume('nextcloud-data-claim')]));
      const nfsClaim = claim('nextcloud-data-claim', { accessModes: ['ReadWriteOnce'], storageClassName: 'nfs-csi' });
      expect(
        hits([
          { object: dataClaim, file: 'a.yaml' },
          { object: nextcloud, file: 'a.yaml' },
          { object: onHoldersNode, file: 'b.yaml' },
        ]),
      ).toEqual([]);
      expect(
        hits([
          { object: dataClaim, file: 'a.yaml' },
          { object: alone, file: 'b.yaml' },
        ]),
      ).toEqual([]);
      expect(
        hits([
          {
            object: {
              apiVersion: 'storage.k8s.io/v1',
              kind: 'StorageClass',
              metadata: { name: 'nfs-csi' },
              provisioner: 'nfs.csi.k8s.io',
            },
            file: 'a.yaml',
          },
          { object: nfsClaim, file: 'a.yaml' },
          { object: nextcloud, file: 'a.yaml' },
          { object: alone, file: 'b.yaml' },
        ]),
      ).toEqual([]);
    });
  });

  test('not when the pods must share a node (required podAffinity by hostname), the claim is multi-node, or one is scaled to zero', () => {
    const coLocated = workload(
      'Deployment',
      'ferretdb',
      {
        ...podSpec([claimVolume('ferretdb-pv-claim')]),
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { app: 'ferretdb-postgres' } }, topologyKey: 'kubernetes.io/hostname' },
            ],
          },
        },
      },
      recreate,
    );
    const inOneFile = (objects: unknown[]) => hits(objects.map((object) => ({ object, file: 'app.yaml' })));
    expect(inOneFile([postgres, coLocated, sharedClaim])).toEqual([]);
    const rwx = claim('ferretdb-pv-claim', { accessModes: ['ReadWriteMany'], storageClassName: 'civo-volume' });
    expect(inOneFile([postgres, ferretdb, rwx])).toEqual([]);
    const scaledDown = workload('Deployment', 'ferretdb', podSpec([claimVolume('ferretdb-pv-claim')]), {
      ...recreate,
      replicas: 0,
    });
    expect(inOneFile([postgres, scaledDown, sharedClaim])).toEqual([]);
    // Copies of one Deployment (a base and its overlay) are one workload, not two.
    expect(inOneFile([postgres, postgres, sharedClaim])).toEqual([]);
  });
});

describe(`${RULE}: a StatefulSet's claim templates replace its pod volumes of the same name`, () => {
  // openebs/litmus apps/cockroachdb/deployers/cockroachdb_sts.yml (held-out-73): the pod volume
  // datadir names claim testclaim, and a claim template datadir replaces it with one claim per pod.
  const testClaim = claim('testclaim', { accessModes: ['ReadWriteOnce'], storageClassName: 'testclass' });
  const cockroach = (templateName: string) =>
    workload('StatefulSet', 'cockroachdb', podSpec([{ ...claimVolume('testclaim'), name: 'datadir' }]), {
      replicas: 3,
      serviceName: 'cockroachdb',
      volumeClaimTemplates: [
        { metadata: { name: templateName }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'testclass' } },
      ],
    });

  test('real world: the volume a claim template replaces is not a claim three pods share', () => {
    expect(
      hits([
        { object: testClaim, file: 'cockroachdb.yml' },
        { object: cockroach('datadir'), file: 'cockroachdb.yml' },
      ]),
    ).toEqual([]);
    expect(
      hits([
        { object: testClaim, file: 'cockroachdb.yml' },
        { object: cockroach('logs'), file: 'cockroachdb.yml' },
      ]).map((hit) => [hit.name, hit.path, hit.severity]),
    ).toEqual([['cockroachdb', PATH, 'error']]);
  });
});

describe(`${RULE}: bare Pods and Jobs written in one file on one claim, which nothing holds`, () => {
  const POD_PATH = 'spec.volumes[0].persistentVolumeClaim';
  const cinder = claim('source-pvc', { accessModes: ['ReadWriteOnce'], storageClassName: 'csi-cinderplugin-sc-5000' });
  const cinderClass = {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'csi-cinderplugin-sc-5000' },
    provisioner: 'cinder.csi.openstack.org',
  };
  const pod = (name: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: podSpec([claimVolume('source-pvc')], extra),
  });
  const job = (name: string) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: { template: { spec: podSpec([claimVolume('source-pvc')], { restartPolicy: 'Never' }) } },
  });
  const inOneFile = (...objects: unknown[]) => objects.map((object) => ({ object, file: 'clone/clone2.yaml' }));

  // cuongpiger/cloud openstack/cinder-csi-plugin/lab/v2/manifest/clone/clone2.yaml (held-out-328):
  // nginx and nginx-2, bare Pods that restart always, both mount the Cinder claim source-pvc.
  test('real world: two Pods that run until deleted: the second is refused, as it waits for the volume for good', () => {
    const found = hits(inOneFile(cinderClass, cinder, pod('nginx'), pod('nginx-2')));
    expect(found.map((hit) => [hit.name, hit.path, hit.severity])).toEqual([['nginx-2', POD_PATH, 'error']]);
    expect(found[0]?.message).toContain(
      'Pod nginx in the same file mounts it too, and nothing keeps their pods on one node',
    );
  });

  // Seagate/seagate-exos-x-csi example/2-pods-1-pvc.yaml (held-out-472): pods that write a file and
  // end (restartPolicy: Never); a Job's pod ends too.
  test('real world: where one of them ends (restartPolicy Never, or a Job), a warning: the other waits until its volume is detached', () => {
    expect(
      hits(
        inOneFile(
          cinderClass,
          cinder,
          pod('pod-1', { restartPolicy: 'Never' }),
          pod('pod-2', { restartPolicy: 'Never' }),
        ),
      ).map((hit) => [hit.name, hit.path, hit.severity]),
    ).toEqual([['pod-2', POD_PATH, 'warning']]);
    expect(
      hits(inOneFile(cinderClass, cinder, pod('writer'), job('reader'))).map((hit) => [hit.name, hit.severity]),
    ).toEqual([['reader', 'warning']]);
  });

  test('Pods in different files, Pods kept on one node by a required podAffinity, and Pods on a node-local class are left alone', () => {
    expect(
      hits([
        { object: cinderClass, file: 'clone/class.yaml' },
        { object: cinder, file: 'clone/claim.yaml' },
        { object: pod('nginx'), file: 'clone/nginx.yaml' },
        { object: pod('nginx-2'), file: 'clone/nginx-2.yaml' },
      ]),
    ).toEqual([]);
    const beside = {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { app: 'nginx' } }, topologyKey: 'kubernetes.io/hostname' },
        ],
      },
    };
    expect(hits(inOneFile(cinderClass, cinder, pod('nginx'), pod('nginx-2', { affinity: beside })))).toEqual([]);
    const localPath = claim('source-pvc', { accessModes: ['ReadWriteOnce'], storageClassName: 'local-path' });
    expect(hits(inOneFile(localPath, pod('nginx'), pod('nginx-2')))).toEqual([]);
  });
});

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

  test('workloads in different files (often alternative examples), or a CronJob beside the Deployment, are left alone', () => {
    expect(
      hits([
        { object: postgres, file: 'ferretdb/postgres.yaml' },
        { object: ferretdb, file: 'ferretdb/ferretdb.yaml' },
        { object: sharedClaim, file: 'ferretdb/claim.yaml' },
      ]),
    ).toEqual([]);
    const backup = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'backup' },
      spec: {
        schedule: '@daily',
        jobTemplate: { spec: { template: { spec: podSpec([claimVolume('ferretdb-pv-claim')]) } } },
      },
    };
    expect(
      hits([
        { object: postgres, file: 'app.yaml' },
        { object: backup, file: 'app.yaml' },
        { object: sharedClaim, file: 'app.yaml' },
      ]),
    ).toEqual([]);
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

import { validateObjects } from '../../../../validators';
import { claim, claimVolume, podSpec, workload } from './fixtures';

const RULE = 'rwo-claim-in-rolling-deployment';
const PATH = 'spec.template.spec.volumes[0].persistentVolumeClaim';
const OVERLAY = 'clusters/tal-clu-1/unifi/deployment.yaml';
const data = claim('unifi-data', { accessModes: ['ReadWriteOnce'], storageClassName: 'synology-iscsi' });
const base = (spec: Record<string, unknown> = {}) =>
  workload('Deployment', 'unifi', podSpec([claimVolume('unifi-data')]), {
    replicas: 1,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    ...spec,
  });
const patch = (spec: Record<string, unknown>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'unifi' },
  spec,
});

function findings(deployment: unknown, patches: readonly unknown[]) {
  return validateObjects([
    { object: deployment, source: { file: 'infra/unifi/deployment.yaml' } },
    { object: data, source: { file: 'infra/unifi/pvc.yaml' } },
    ...patches.map((object) => ({ object, source: { file: OVERLAY }, patch: true })),
  ])
    .findings.filter((finding) => finding.rule === RULE)
    .map((finding) => ({ path: finding.path, severity: finding.severity, message: finding.message }));
}

describe(`${RULE}: a base that an overlay's patch makes safe`, () => {
  // emerconn/fleet-infra (held-out-156): the base unifi-network-application Deployment rolls
  // (maxSurge 1) on a ReadWriteOnce iSCSI claim; the only overlay that applies it patches in a
  // required podAffinity by hostname on the Deployment's own pods (app=unifi-network-application).
  test('real world: an overlay ties the pods to their own node: a warning that names the patch', () => {
    const affinity = patch({
      template: {
        spec: {
          affinity: {
            podAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [
                {
                  labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['unifi'] }] },
                  topologyKey: 'kubernetes.io/hostname',
                },
              ],
            },
          },
        },
      },
    });
    const [found, ...more] = findings(base(), [affinity]);
    expect(more).toEqual([]);
    expect(found).toEqual({ path: PATH, severity: 'warning', message: expect.any(String) });
    expect(found?.message).toContain(`The kustomize patch in ${OVERLAY} keeps every pod on one node`);
  });

  test('an overlay that sets Recreate on a one-pod Deployment: a warning', () => {
    const [found] = findings(base(), [patch({ strategy: { type: 'Recreate' } })]);
    expect(found).toEqual({ path: PATH, severity: 'warning', message: expect.any(String) });
    expect(found?.message).toContain('sets the Recreate strategy');
  });

  test('Recreate does not help three replicas, nor does a patch of another Deployment: still refused', () => {
    const error = [{ path: PATH, severity: 'error', message: expect.any(String) }];
    expect(findings(base({ replicas: 3 }), [patch({ strategy: { type: 'Recreate' } })])).toEqual(error);
    const other = { ...patch({ template: { spec: { nodeName: 'node-1' } } }), metadata: { name: 'other' } };
    expect(findings(base(), [other])).toEqual(error);
    expect(findings(base(), [])).toEqual(error);
  });
});

describe(`${RULE}: a base claim that an overlay's patch makes single-writer`, () => {
  const shared = claim('redmine-files', { accessModes: ['ReadWriteMany'] });
  const redmine = workload('Deployment', 'redmine', podSpec([claimVolume('redmine-files')]), { replicas: 1 });
  const claimPatch = (spec: Record<string, unknown>, name = 'redmine-files') => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name },
    spec,
  });
  const run = (patches: readonly unknown[]) =>
    validateObjects([
      { object: redmine, source: { file: 'base/deployment.yaml' } },
      { object: shared, source: { file: 'base/deployment.yaml' } },
      ...patches.map((object) => ({ object, source: { file: 'overlay/prod/kustomization.yaml' }, patch: true })),
    ])
      .findings.filter((finding) => finding.rule === RULE)
      .map((finding) => ({ path: finding.path, severity: finding.severity, message: finding.message }));

  // AbeYuki/redmine-k8s (held-out-438): the base claims are ReadWriteMany, and both overlays patch
  // them inline to ReadWriteOnce (Longhorn in prod) under the rolling Redmine and MariaDB Deployments.
  test('real world: an overlay patches a ReadWriteMany claim to ReadWriteOnce on Longhorn: refused, naming the patch', () => {
    const [found, ...more] = run([claimPatch({ accessModes: ['ReadWriteOnce'], storageClassName: 'longhorn' })]);
    expect(more).toEqual([]);
    expect(found).toEqual({ path: PATH, severity: 'error', message: expect.any(String) });
    expect(found?.message).toContain(
      'mounts PersistentVolumeClaim redmine-files as the overlay in overlay/prod patches it (ReadWriteOnce)',
    );
  });

  // sillsdev/languageforge-lexbox deployment/local-dev (held-out-204): one patch file makes the
  // ReadWriteMany claim ReadWriteOnce, another puts it on Docker Desktop's node-local hostpath class.
  test('real world: the patches of one overlay apply together: ReadWriteOnce on a node-local class passes', () => {
    expect(run([claimPatch({ accessModes: ['ReadWriteOnce'] }), claimPatch({ storageClassName: 'hostpath' })])).toEqual(
      [],
    );
    expect(run([claimPatch({ accessModes: ['ReadWriteOnce'] })])).toEqual([
      { path: PATH, severity: 'error', message: expect.any(String) },
    ]);
  });

  test('the base alone, a patch that keeps a multi-node mode, one onto a node-local class, or of another claim: passes', () => {
    expect(run([])).toEqual([]);
    expect(run([claimPatch({ resources: { requests: { storage: '5Gi' } } })])).toEqual([]);
    expect(run([claimPatch({ storageClassName: 'longhorn' })])).toEqual([]);
    expect(run([claimPatch({ accessModes: ['ReadWriteOnce'], storageClassName: 'local-path' })])).toEqual([]);
    expect(run([claimPatch({ accessModes: ['ReadWriteOnce'] }, 'other-claim')])).toEqual([]);
  });
});

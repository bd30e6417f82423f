import { LEADER_ELECTION_SETTING_KINDS } from '../scopes';
import { ownEntry } from '../../json';
import { Rule } from '../../rule';
import { leaderElectionDisabled, leaderElectionSettings } from './leader-election-settings';

/** Locks that keep leader election on Endpoints or ConfigMaps, and the release that removed each (client-go resourcelock). */
export const LEGACY_LOCKS: Readonly<Record<string, { readonly removedIn: string; readonly object: string }>> = {
  endpoints: { removedIn: '1.24', object: 'an Endpoints object' },
  configmaps: { removedIn: '1.24', object: 'a ConfigMap' },
  endpointsleases: { removedIn: '1.28', object: 'an Endpoints object and a Lease (migration lock)' },
  configmapsleases: { removedIn: '1.28', object: 'a ConfigMap and a Lease (migration lock)' },
};

export const legacyLeaderElectionLock: Rule = {
  id: 'legacy-leader-election-lock',
  severity: 'error',
  scope: LEADER_ELECTION_SETTING_KINDS,
  judgesPatches: true,
  summary:
    'Leader election uses an endpoints/configmaps lock (flag --leader-elect-resource-lock or leaderElection.resourceLock; a warning for a CSI sidecar image before v2.0, or a control-plane image before v1.20, whose default lock it is).',
  why:
    'Incident 3: kube-controller-manager kept its leader lock on an Endpoints object; after the disk ' +
    'filled up it failed with `Failed to update lock: ... endpoints "kube-controller-manager"` and no ' +
    'controller did any work until someone deleted the Endpoints object. The endpoints and configmaps ' +
    'locks were removed in Kubernetes 1.24, the endpointsleases and configmapsleases migration locks in ' +
    '1.28: components given them refuse to start. Before removal, every renewal still writes the legacy ' +
    'object, so it stays in the critical path.',
  fix:
    'Use the leases lock: --leader-elect-resource-lock=leases, or leaderElection.resourceLock: leases ' +
    '(the default since 1.20, so removing the setting also works), and grant get/update on the ' +
    'coordination.k8s.io Lease and create on leases.',
  example: {
    bad: [
      'apiVersion: v1',
      'kind: Pod',
      'metadata: {name: kube-controller-manager, namespace: kube-system}',
      'spec:',
      '  containers:',
      '  - name: kube-controller-manager',
      '    image: registry.k8s.io/kube-controller-manager:v1.27.4',
      '    command: [kube-controller-manager, --leader-elect=true, --leader-elect-resource-lock=endpoints]',
    ].join('\n'),
    good: [
      'apiVersion: v1',
      'kind: Pod',
      'metadata: {name: kube-controller-manager, namespace: kube-system}',
      'spec:',
      '  containers:',
      '  - name: kube-controller-manager',
      '    image: registry.k8s.io/kube-controller-manager:v1.27.4',
      '    command: [kube-controller-manager, --leader-elect=true, --leader-elect-resource-lock=leases]',
    ].join('\n'),
  },
  check(context) {
    const version = context.kubernetesVersion;
    for (const settings of leaderElectionSettings(context.index)) {
      const lock = settings.resourceLock;
      if (!lock || typeof lock.value !== 'string' || leaderElectionDisabled(settings)) continue;
      const legacy = ownEntry(LEGACY_LOCKS, lock.value);
      if (!legacy) continue;
      if (settings.resourceLockDefaultOf !== undefined) {
        // An old image still runs with its default lock: a risk (incident 3), not a refusal.
        context.report(settings.owner, {
          path: lock.path,
          severity: 'warning',
          message:
            `${settings.description} has leader election on and no lock flag: ${settings.resourceLockDefaultOf.which} ` +
            `then elects its leader on ${legacy.object} (the "${lock.value}" lock), the lock that got stuck in ` +
            `incident 3. ${settings.resourceLockDefaultOf.remedy}`,
        });
        continue;
      }
      const consequence = version.atLeast(legacy.removedIn)
        ? `on the target Kubernetes ${version.toString()} the component refuses to start`
        : `the target Kubernetes ${version.toString()} still accepts it, but every renewal writes ${legacy.object}, ` +
          'the lock that got stuck in incident 3, and the upgrade to ' +
          `${legacy.removedIn} will stop the component`;
      context.report(settings.owner, {
        path: lock.path,
        message:
          `${settings.description} elects its leader with the "${lock.value}" lock, which was removed in ` +
          `Kubernetes ${legacy.removedIn}: ${consequence}.`,
      });
    }
  },
};

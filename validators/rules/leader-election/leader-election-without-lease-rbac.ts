import { LEADER_ELECTION_SETTING_KINDS, RBAC_KINDS } from '../scopes';
import { asString, ownEntry } from '../../json';
import { RoleGrant } from '../../object-index';
import { Rule } from '../../rule';
import { ControllerRuntimeVersion, controllerRuntimeOf } from './controller-runtime-version';
import { LEGACY_LOCKS } from './legacy-leader-election-lock';
import { LeaderElectionSettings, leaderElectionEnabled, leaderElectionSettings } from './leader-election-settings';
import { LEASE_LOCK_VERBS, PolicyRule, effectiveRules, hasVerb, missingLeaseVerbs, namesCoreResource } from './rbac';

export const leaderElectionWithoutLeaseRbac: Rule = {
  id: 'leader-election-without-lease-rbac',
  // An error: it is reported only when every binding and role of the ServiceAccount is in the input.
  severity: 'error',
  scope: [...LEADER_ELECTION_SETTING_KINDS, ...RBAC_KINDS],
  summary:
    "A workload runs with leader election on but its ServiceAccount's RBAC, all in the set, does not allow get, create and update on leases.",
  why:
    'With leader election on, the process must create and renew a coordination.k8s.io Lease before it ' +
    'does any work. Without RBAC on leases every replica loops on `leases ... is forbidden` and none ' +
    'becomes leader: the controller is installed and silent, as in incident 3. One case is only a warning: ' +
    "kubebuilder v2's --enable-leader-election with RBAC for a ConfigMap lock, as controller-runtime before 0.7 " +
    "locks on a ConfigMap; it is an error when a go.mod in the input (in the manifest's directory or above, " +
    "for an image of the module's program) pins controller-runtime 0.7 or later, whose default lock needs a Lease.",
  fix:
    "Bind the ServiceAccount to a Role in the lock's namespace that grants create on leases and " +
    'get/update on the lock by resourceNames (LeaderLease.grantLeadership(serviceAccount) in cdk8s).',
  example: {
    bad: [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: operator, namespace: ops}',
      'spec:',
      '  selector: {matchLabels: {app: operator}}',
      '  template:',
      '    metadata: {labels: {app: operator}}',
      '    spec:',
      '      serviceAccountName: operator',
      '      containers:',
      '      - {name: operator, image: example/operator:1.0, args: [--leader-elect=true]}',
      '---',
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: Role',
      'metadata: {name: operator, namespace: ops}',
      'rules: [{apiGroups: [""], resources: [configmaps], verbs: [get, list, watch]}]',
      '---',
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: RoleBinding',
      'metadata: {name: operator, namespace: ops}',
      'roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: operator}',
      'subjects: [{kind: ServiceAccount, name: operator, namespace: ops}]',
    ].join('\n'),
    good: [
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: Role',
      'metadata: {name: operator, namespace: ops}',
      'rules:',
      '- {apiGroups: [""], resources: [configmaps], verbs: [get, list, watch]}',
      '- {apiGroups: [coordination.k8s.io], resources: [leases], verbs: [create]}',
      '- {apiGroups: [coordination.k8s.io], resources: [leases], resourceNames: [operator], verbs: [get, update]}',
    ].join('\n'),
  },
  check(context) {
    const reported = new Set<string>();
    // The verdict depends on the ServiceAccount only; many pod templates share one.
    const missingBySubject = new Map<string, Missing | undefined>();
    const clusterRoles = context.index.ofKind('ClusterRole');
    const missingFor = (grants: readonly RoleGrant[]): Missing | undefined => {
      // Only judge RBAC we can see whole: no binding, or a binding to a role outside the set, is unknown.
      if (grants.length === 0 || grants.some((grant) => grant.role === undefined)) return undefined;
      // All of the ServiceAccount's RBAC is here: its roles together, aggregated ClusterRoles included.
      const rules = grants.map((grant) => (grant.role ? effectiveRules(grant.role, clusterRoles) : undefined));
      if (rules.some((list) => list === undefined)) return undefined;
      const all = rules.flatMap((list) => list ?? []);
      return { verbs: missingLeaseVerbs(all), configMapLock: allowsConfigMapLock(all) };
    };
    for (const settings of leaderElectionSettings(context.index)) {
      const template = settings.podTemplate;
      if (!template || !settings.leaderElect || !leaderElectionEnabled(settings) || usesLegacyLock(settings)) continue;
      // A component that talks to the API server as its kubeconfig's user holds the lock with that
      // user's rights (kube-controller-manager's static pod): its ServiceAccount's RBAC says nothing.
      if (settings.usesKubeconfig) continue;
      // One finding per pod template, even when several containers elect leaders.
      const templateKey = `${template.owner.position}:${template.path}`;
      if (reported.has(templateKey)) continue;
      const serviceAccount =
        asString(template.spec.serviceAccountName) ?? asString(template.spec.serviceAccount) ?? 'default';
      const grants = context.index.grantsFor(template.owner.ref.namespace, serviceAccount);
      const subjectKey = `${template.owner.ref.namespace ?? '\u0000'}/${serviceAccount}`;
      if (!missingBySubject.has(subjectKey)) missingBySubject.set(subjectKey, missingFor(grants));
      const found = missingBySubject.get(subjectKey);
      if (found === undefined || found.verbs.length === 0) continue;
      const missing = found.verbs;
      // kubebuilder v2's flag: controller-runtime before 0.7 locked on a ConfigMap, which this RBAC
      // allows; from 0.7 the default lock needs leases. The version is in the module's go.mod, when
      // the input holds the controller's source tree; otherwise it is unknown.
      const kubebuilderV2Flag = settings.leaderElect.flag === 'enable-leader-election' && found.configMapLock;
      const build = kubebuilderV2Flag ? controllerRuntimeOf(context.index, template.owner, settings.image) : undefined;
      const uncertain = kubebuilderV2Flag && !build?.defaultLockNeedsLeases;
      reported.add(templateKey);
      const roles = grants.map((grant) => `${grant.roleRefKind ?? 'role'} ${grant.roleRefName ?? ''}`).join(', ');
      context.report(template.owner, {
        path: settings.leaderElect.path,
        // Every binding and role of the ServiceAccount is in the input: the lock certainly fails,
        // unless an old controller-runtime locks on the ConfigMap the RBAC allows.
        severity: uncertain ? 'warning' : 'error',
        message:
          `${settings.description} runs with leader election on, but ServiceAccount ${serviceAccount} is bound ` +
          `only to ${roles}, which together do not allow ${missing.join(', ')} on coordination.k8s.io leases ` +
          `(client-go's lease lock needs get, create and update; create cannot be limited by resourceNames): ` +
          'no replica can take or keep the lock.' +
          buildNote(build, uncertain),
      });
    }
  },
};

/** What the message says of the controller-runtime behind kubebuilder v2's flag, when it matters. */
function buildNote(build: ControllerRuntimeVersion | undefined, uncertain: boolean): string {
  if (build?.defaultLockNeedsLeases)
    return (
      ` ${build.file} builds it with controller-runtime ${build.version}, whose default lock needs a Lease ` +
      '(configmapsleases from v0.7, leases from v0.12).'
    );
  if (build)
    return (
      ` ${build.file} builds it with controller-runtime ${build.version}, older than 0.7, whose lock is a ` +
      'ConfigMap, which these roles allow: a legacy lock, to move to leases.'
    );
  if (uncertain)
    return (
      ' Unless it is built on controller-runtime older than 0.7 (the --enable-leader-election of kubebuilder v2), ' +
      'whose lock is a ConfigMap, which these roles allow: a legacy lock then, to move to leases.'
    );
  return '';
}

/** What a ServiceAccount's RBAC leaves out of the lease lock, and whether it allows a ConfigMap lock instead. */
interface Missing {
  readonly verbs: readonly string[];
  readonly configMapLock: boolean;
}

/** The lock verbs on configmaps: client-go's ConfigMap lock (controller-runtime before 0.7) uses the Lease lock's. */
function allowsConfigMapLock(rules: readonly PolicyRule[]): boolean {
  return LEASE_LOCK_VERBS.every((verb) =>
    rules.some((rule) => namesCoreResource(rule, 'configmaps') && hasVerb(rule, [verb])),
  );
}

function usesLegacyLock(settings: LeaderElectionSettings): boolean {
  const lock = settings.resourceLock?.value;
  return typeof lock === 'string' && ownEntry(LEGACY_LOCKS, lock) !== undefined;
}

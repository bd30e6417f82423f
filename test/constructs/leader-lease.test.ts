import { Chart, Duration, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-27';
import { k8s } from 'cdk8s-plus-27';
import { BallastGate, BallastPropError, LEADER_LEASE_ENV, LeaderElectionTimings, LeaderLease } from '../../constructs';
import { validateObjects } from '../../validators';
import { schemaErrors } from '../support/schema';
import { testApp } from '../support/test-app';

function chart(namespace?: string) {
  const app = testApp();
  new BallastGate(app, { log: () => undefined });
  return new Chart(app, 'test', { namespace, disableResourceNameHashes: true });
}
const ofKind = (objects: any[], kind: string) => objects.filter((o) => o.kind === kind);

describe('LeaderLease', () => {
  test('synthesizes a Lease with leaseDurationSeconds from the timings', () => {
    const scope = chart('ops');
    new LeaderLease(scope, 'lock', {
      name: 'operator',
      timings: { leaseDuration: Duration.seconds(30), renewDeadline: Duration.seconds(20) },
    });
    expect(ofKind(Testing.synth(scope), 'Lease')).toEqual([
      {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'operator', namespace: 'ops' },
        spec: { leaseDurationSeconds: 30 },
      },
    ]);
  });

  test('grantLeadership writes create on leases and get/update on this lease only', () => {
    const scope = chart('ops');
    const lease = new LeaderLease(scope, 'lock', { name: 'operator' });
    lease.grantLeadership(new kplus.ServiceAccount(scope, 'sa', { metadata: { name: 'operator' } }));
    lease.grantLeadership(
      new k8s.KubeServiceAccount(scope, 'other', { metadata: { name: 'standby', namespace: 'backup' } }),
    );
    const objects = Testing.synth(scope);
    const [role] = ofKind(objects, 'Role');
    expect(role.metadata).toEqual({ name: 'operator-leader-election', namespace: 'ops' });
    expect(role.rules).toEqual([
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        resourceNames: ['operator'],
        verbs: ['get', 'update'],
      },
    ]);
    const verbs = role.rules.flatMap((rule: { verbs: string[] }) => rule.verbs);
    for (const forbidden of ['delete', 'deletecollection', 'list', 'watch', 'patch', '*'])
      expect(verbs).not.toContain(forbidden);
    expect(
      ofKind(objects, 'RoleBinding').map((b) => ({
        ns: b.metadata.namespace,
        role: b.roleRef.name,
        subjects: b.subjects,
      })),
    ).toEqual([
      {
        ns: 'ops',
        role: 'operator-leader-election',
        subjects: [{ kind: 'ServiceAccount', name: 'operator', namespace: 'ops' }],
      },
      {
        ns: 'ops',
        role: 'operator-leader-election',
        subjects: [{ kind: 'ServiceAccount', name: 'standby', namespace: 'backup' }],
      },
    ]);
    expect(objects.flatMap(schemaErrors)).toEqual([]);
    // The ballast rules agree the grant is least privilege.
    const findings = validateObjects(objects.map((object) => ({ object }))).findings.filter((f) =>
      /lease|leader/.test(f.rule),
    );
    expect(findings).toEqual([]);
  });

  test('accounts of one name in different namespaces get bindings of different names', () => {
    const scope = chart('ops');
    const lease = new LeaderLease(scope, 'lock', { name: 'operator' });
    lease.grantLeadership(
      new k8s.KubeServiceAccount(scope, 'here', { metadata: { name: 'operator', namespace: 'ops' } }),
    );
    lease.grantLeadership(
      new k8s.KubeServiceAccount(scope, 'there', { metadata: { name: 'operator', namespace: 'backup' } }),
    );
    const names = ofKind(Testing.synth(scope), 'RoleBinding').map((binding) => binding.metadata.name);
    expect(names).toEqual(['operator-leader-election-operator', 'operator-leader-election-operator-backup']);
  });

  test('refuses to grant the same ServiceAccount twice', () => {
    const scope = chart('ops');
    const lease = new LeaderLease(scope, 'lock');
    const sa = new kplus.ServiceAccount(scope, 'sa');
    lease.grantLeadership(sa);
    expect(() => lease.grantLeadership(sa)).toThrow(BallastPropError);
  });

  test('attachTo a cdk8s-plus workload adds lock name, namespace, pod-name identity and timings to every container', () => {
    const scope = chart('ops');
    const lease = new LeaderLease(scope, 'lock', { name: 'operator' });
    const deployment = new kplus.Deployment(scope, 'operator', {
      replicas: 2,
      containers: [
        { name: 'manager', image: 'example/operator:1.0' },
        { name: 'sidecar', image: 'example/sidecar:1.0' },
      ],
    });
    lease.attachTo(deployment);
    const [synthesized] = ofKind(Testing.synth(scope), 'Deployment');
    for (const container of synthesized.spec.template.spec.containers) {
      expect(container.env).toEqual(
        expect.arrayContaining([
          { name: LEADER_LEASE_ENV.leaseName, value: 'operator' },
          { name: LEADER_LEASE_ENV.leaseNamespace, value: 'ops' },
          { name: LEADER_LEASE_ENV.identity, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          { name: LEADER_LEASE_ENV.leaseDuration, value: '15s' },
          { name: LEADER_LEASE_ENV.renewDeadline, value: '10s' },
          { name: LEADER_LEASE_ENV.retryPeriod, value: '2s' },
        ]),
      );
    }
  });

  test('attachTo a low-level KubeStatefulSet appends to existing env; namespace comes from the downward API when unknown', () => {
    const scope = chart();
    const lease = new LeaderLease(scope, 'lock', { name: 'scheduler' });
    const template = (env?: k8s.EnvVar[]) => ({ name: 'main', image: 'example/scheduler:2.0', env });
    const statefulSet = new k8s.KubeStatefulSet(scope, 'sts', {
      metadata: { name: 'scheduler' },
      spec: {
        serviceName: 'scheduler',
        selector: { matchLabels: { app: 'scheduler' } },
        template: {
          metadata: { labels: { app: 'scheduler' } },
          spec: { containers: [template([{ name: 'LOG', value: 'debug' }]), { ...template(), name: 'b' }] },
        },
      },
    });
    lease.attachTo(statefulSet);
    const [synthesized] = ofKind(Testing.synth(scope), 'StatefulSet');
    const [first, second] = synthesized.spec.template.spec.containers;
    expect(first.env.map((v: { name: string }) => v.name)).toEqual(['LOG', ...Object.values(LEADER_LEASE_ENV)]);
    expect(second.env).toHaveLength(6);
    expect(first.env).toContainEqual({
      name: LEADER_LEASE_ENV.leaseNamespace,
      valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } },
    });
    expect(schemaErrors(synthesized)).toEqual([]);
  });

  test('attachTo refuses a container that already sets a lease variable, and an object without a pod template', () => {
    const scope = chart('ops');
    const lease = new LeaderLease(scope, 'lock');
    const deployment = new kplus.Deployment(scope, 'd', {
      containers: [{ image: 'x:1', envVariables: { [LEADER_LEASE_ENV.identity]: kplus.EnvValue.fromValue('me') } }],
    });
    expect(() => lease.attachTo(deployment)).toThrow(/already sets LEADER_ELECTION_IDENTITY/);
    expect(() => lease.attachTo(new k8s.KubeConfigMap(scope, 'cm', {}))).toThrow(BallastPropError);
  });

  test.each([
    [
      { leaseDuration: Duration.seconds(10), renewDeadline: Duration.seconds(10) },
      /leaseDuration \(10s\) must be greater than renewDeadline \(10s\)/,
    ],
    [{ retryPeriod: Duration.seconds(9) }, /renewDeadline \(10s\) must be greater than 1.2 × retryPeriod/],
    [{ retryPeriod: Duration.seconds(0) }, /retryPeriod must be greater than zero/],
    [
      { leaseDuration: Duration.millis(900), renewDeadline: Duration.millis(500), retryPeriod: Duration.millis(100) },
      /at least 1 second/,
    ],
  ])('the constructor refuses timings client-go rejects: %j', (timings, message) => {
    expect(() => new LeaderLease(chart('ops'), 'lock', { timings })).toThrow(BallastPropError);
    expect(() => new LeaderLease(chart('ops'), 'lock', { timings })).toThrow(message);
  });

  test('refuses names Kubernetes rejects', () => {
    expect(() => new LeaderLease(chart(), 'lock', { name: 'Operator_Lock' })).toThrow(/invalid name "Operator_Lock"/);
    expect(() => new LeaderLease(chart(), 'lock', { namespace: 'a.b' })).toThrow(/invalid namespace/);
  });

  test('LeaderElectionTimings reports every violated check at once', () => {
    expect(() =>
      LeaderElectionTimings.of(
        { leaseDuration: Duration.seconds(5), renewDeadline: Duration.seconds(6), retryPeriod: Duration.seconds(6) },
        'here',
      ),
    ).toThrow(
      /leaseDuration \(5s\) must be greater than renewDeadline \(6s\); renewDeadline \(6s\) must be greater than 1.2 × retryPeriod/,
    );
    expect(LeaderElectionTimings.of(undefined, 'here').toGoDurations()).toEqual({
      leaseDuration: '15s',
      renewDeadline: '10s',
      retryPeriod: '2s',
    });
  });
});

import { ApiObject, JsonPatch } from 'cdk8s';
import { k8s } from 'cdk8s-plus-27';
import { Construct } from 'constructs';
import { asArray, asString, isRecord } from '../validators';
import { BallastGate } from './ballast-gate';
import { LeaderElectionTimings, LeaderElectionTimingsProps } from './leader-election-timings';
import { BallastPropError, PropProblems } from './prop-error';
import { DNS_LABEL, DNS_SUBDOMAIN } from './kubernetes-names';
import { WorkloadLike, podTemplateOf, workloadPath } from './workload';

/** The environment variables `attachTo` adds to every container of the workload. */
export const LEADER_LEASE_ENV = {
  /** The Lease's name: the lock name to pass to client-go's LeaseLock. */
  leaseName: 'LEADER_ELECTION_LEASE_NAME',
  /** The Lease's namespace. */
  leaseNamespace: 'LEADER_ELECTION_LEASE_NAMESPACE',
  /** This pod's name (downward API `metadata.name`): the holder identity, unique per pod. */
  identity: 'LEADER_ELECTION_IDENTITY',
  leaseDuration: 'LEADER_ELECTION_LEASE_DURATION',
  renewDeadline: 'LEADER_ELECTION_RENEW_DEADLINE',
  retryPeriod: 'LEADER_ELECTION_RETRY_PERIOD',
} as const;

const LEASE_API_GROUP = 'coordination.k8s.io';

export interface LeaderLeaseProps {
  /**
   * The Lease's name: the lock all replicas compete for.
   * @default - a name generated from the construct path
   */
  readonly name?: string;
  /**
   * The namespace of the Lease, its Role and RoleBinding.
   * @default - the chart's namespace; without one, the namespace the manifests are applied to
   */
  readonly namespace?: string;
  /**
   * Leader-election timings; checked like client-go checks them (leaseDuration > renewDeadline >
   * 1.2 × retryPeriod > 0). `leaseDuration` is also written to the Lease as `leaseDurationSeconds`.
   * @default - 15s / 10s / 2s
   */
  readonly timings?: LeaderElectionTimingsProps;
}

/**
 * A ServiceAccount: a cdk8s-plus ServiceAccount of any line (anything that can name itself as an
 * RBAC subject) or a low-level `k8s.KubeServiceAccount` / ApiObject.
 */
export type LeaderServiceAccount =
  { toSubjectConfiguration(): { readonly name: string; readonly namespace?: string } } | ApiObject;

/** A workload: a cdk8s-plus workload or pod of any line, or a `k8s.Kube*`/raw object with a pod template. */
export type LeaderWorkload = WorkloadLike;

/**
 * A leader lock on a `coordination.k8s.io/v1` Lease, for a workload that runs several replicas
 * and lets one of them lead (an operator, a scheduler, a singleton job runner).
 *
 * ```ts
 * const lease = new LeaderLease(chart, 'lock', { name: 'report-runner' });
 * lease.grantLeadership(serviceAccount); // Role + RoleBinding: create leases; get/update this lease
 * lease.attachTo(deployment);            // env: lease name, namespace, holder identity (pod name), timings
 * ```
 *
 * Leader election on Endpoints or ConfigMaps (incident 3) is not offered: those locks were removed
 * from Kubernetes in 1.24 and 1.28.
 */
export class LeaderLease extends Construct {
  /** The Lease object. */
  public readonly apiObject: k8s.KubeLease;
  /** The Lease's name. */
  public readonly name: string;
  /** The Lease's namespace, when known at synth time. */
  public readonly namespace?: string;
  /** The checked timings. */
  public readonly timings: LeaderElectionTimings;
  private role?: k8s.KubeRole;
  private readonly granted = new Set<string>();

  constructor(scope: Construct, id: string, props: LeaderLeaseProps = {}) {
    super(scope, id);
    BallastGate.of(this);
    const problems = new PropProblems();
    if (props.name !== undefined && !DNS_SUBDOMAIN.test(props.name)) {
      problems.add(
        'name',
        props.name,
        'a Lease name must be a DNS subdomain',
        'use lower-case letters, digits, "-" and ".", such as "report-runner"',
      );
    }
    if (props.namespace !== undefined && !DNS_LABEL.test(props.namespace)) {
      problems.add(
        'namespace',
        props.namespace,
        'a namespace must be a DNS label',
        'use lower-case letters, digits and "-", at most 63 characters',
      );
    }
    const timings = problems.collect(() => LeaderElectionTimings.of(props.timings, this));
    const leaseDurationSeconds = timings ? Math.floor(timings.toMilliseconds().leaseDuration / 1000) : 0;
    if (timings && leaseDurationSeconds < 1) {
      problems.add(
        'timings.leaseDuration',
        timings.toGoDurations().leaseDuration,
        "a Lease's leaseDurationSeconds must be at least 1 second",
        'use a leaseDuration of 1s or more (default 15s)',
      );
    }
    problems.throwIfAny(this);
    this.timings = timings ?? LeaderElectionTimings.DEFAULT;
    this.apiObject = new k8s.KubeLease(this, 'Resource', {
      metadata: { name: props.name, namespace: props.namespace },
      // holderIdentity is left to the elected pod; the Lease exists so its RBAC can name it.
      spec: { leaseDurationSeconds },
    });
    this.name = this.apiObject.name;
    this.namespace = this.apiObject.metadata.namespace;
  }

  /**
   * Lets a ServiceAccount take and keep this lock, with the least RBAC client-go's LeaseLock
   * needs: `create` on leases (RBAC cannot restrict create by name) and `get`/`update` on this
   * Lease only. No delete, list, watch or `*`. One Role per lease, one RoleBinding per account.
   */
  public grantLeadership(serviceAccount: LeaderServiceAccount): k8s.KubeRoleBinding {
    const subject = subjectOf(serviceAccount);
    const key = `${subject.namespace ?? ''}/${subject.name}`;
    if (this.granted.has(key)) {
      throw new BallastPropError(
        this,
        'grantLeadership(serviceAccount)',
        key,
        'leadership is already granted to this ServiceAccount',
        'call grantLeadership once per ServiceAccount',
      );
    }
    this.granted.add(key);
    const role =
      this.role ??
      (this.role = new k8s.KubeRole(this, 'Role', {
        metadata: { name: `${this.name}-leader-election`, namespace: this.namespace },
        rules: [
          { apiGroups: [LEASE_API_GROUP], resources: ['leases'], verbs: ['create'] },
          { apiGroups: [LEASE_API_GROUP], resources: ['leases'], resourceNames: [this.name], verbs: ['get', 'update'] },
        ],
      }));
    // Accounts of the same name in other namespaces each get a binding: their names must differ.
    const otherNamespace =
      subject.namespace !== undefined && subject.namespace !== this.namespace ? `-${subject.namespace}` : '';
    return new k8s.KubeRoleBinding(
      this,
      `RoleBinding-${subject.name}${subject.namespace ? `-${subject.namespace}` : ''}`,
      {
        metadata: { name: `${this.name}-leader-election-${subject.name}${otherNamespace}`, namespace: this.namespace },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role.name },
        // Without a namespace the subject defaults to the binding's namespace (RBAC authorizer).
        subjects: [{ kind: 'ServiceAccount', name: subject.name, namespace: subject.namespace }],
      },
    );
  }

  /**
   * Adds the lock's coordinates to every container of the workload: the Lease's name and namespace,
   * the pod's own name (downward API) as holder identity, so identities are unique per pod, and the
   * timings as Go durations. The names are in `LEADER_LEASE_ENV`. The variables are JSON patches
   * on the workload's ApiObject, so any cdk8s-plus line works: add the containers first.
   */
  public attachTo(workload: LeaderWorkload): void {
    this.attachToApiObject(workload, this.environment());
  }

  private environment(): k8s.EnvVar[] {
    const timings = this.timings.toGoDurations();
    return [
      { name: LEADER_LEASE_ENV.leaseName, value: this.name },
      this.namespace !== undefined
        ? { name: LEADER_LEASE_ENV.leaseNamespace, value: this.namespace }
        : { name: LEADER_LEASE_ENV.leaseNamespace, valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: LEADER_LEASE_ENV.identity, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: LEADER_LEASE_ENV.leaseDuration, value: timings.leaseDuration },
      { name: LEADER_LEASE_ENV.renewDeadline, value: timings.renewDeadline },
      { name: LEADER_LEASE_ENV.retryPeriod, value: timings.retryPeriod },
    ];
  }

  private attachToApiObject(workload: LeaderWorkload, variables: k8s.EnvVar[]): void {
    const template = podTemplateOf(workload, this, 'attachTo(workload)');
    const containers = asArray(template.podSpec.containers);
    if (containers.length === 0) {
      throw new BallastPropError(
        this,
        'attachTo(workload)',
        workloadPath(workload),
        'the workload has no containers yet',
        'add the containers first, then call attachTo',
      );
    }
    const pointer = `${template.pointer}/containers`;
    containers.forEach((container, index) => {
      const existing = isRecord(container) ? asArray(container.env) : [];
      for (const variable of existing) {
        const name = isRecord(variable) ? asString(variable.name) : undefined;
        if (name !== undefined && variables.some((v) => v.name === name))
          throw this.conflict(workloadPath(workload), name);
      }
      const env = variables.map(toJsonEnvVar);
      if (isRecord(container) && Array.isArray(container.env)) {
        for (const variable of env)
          template.apiObject.addJsonPatch(JsonPatch.add(`${pointer}/${index}/env/-`, variable));
      } else {
        template.apiObject.addJsonPatch(JsonPatch.add(`${pointer}/${index}/env`, env));
      }
    });
  }

  private conflict(workloadPath: string, name: string): BallastPropError {
    return new BallastPropError(
      this,
      'attachTo(workload)',
      workloadPath,
      `a container already sets ${name}`,
      'remove that variable or attach only one LeaderLease to the workload',
    );
  }
}

function toJsonEnvVar(variable: k8s.EnvVar): Record<string, unknown> {
  return variable.valueFrom?.fieldRef
    ? { name: variable.name, valueFrom: { fieldRef: { fieldPath: variable.valueFrom.fieldRef.fieldPath } } }
    : { name: variable.name, value: variable.value };
}

function subjectOf(serviceAccount: LeaderServiceAccount): { name: string; namespace?: string } {
  if (ApiObject.isApiObject(serviceAccount)) {
    return { name: serviceAccount.name, namespace: serviceAccount.metadata.namespace };
  }
  const subject = serviceAccount.toSubjectConfiguration();
  return { name: subject.name, namespace: subject.namespace };
}

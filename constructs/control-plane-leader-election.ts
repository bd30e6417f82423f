import { DEFAULT_KUBERNETES_VERSION, KubeVersion } from '../validators';
import { LeaderElectionTimings, LeaderElectionTimingsProps } from './leader-election-timings';
import { BallastPropError, PropProblems } from './prop-error';
import { DNS_SUBDOMAIN } from './kubernetes-names';

/** The control-plane components whose leader election ballast renders. */
export type ControlPlaneComponent = 'kube-controller-manager' | 'kube-scheduler';

export interface ControlPlaneLeaderElectionOptions {
  /**
   * The Kubernetes version of the control plane, `MAJOR.MINOR`; 1.20 or newer.
   * @default the newest version the rules know (DEFAULT_KUBERNETES_VERSION)
   */
  readonly kubernetesVersion?: string | KubeVersion;
  /**
   * Whether the component elects a leader. Switch it off only for a control plane with a single
   * instance of the component.
   * @default true
   */
  readonly leaderElect?: boolean;
  /**
   * Leader-election timings, checked like client-go checks them.
   * @default - 15s / 10s / 2s (the components' own defaults)
   */
  readonly timings?: LeaderElectionTimingsProps;
  /**
   * The Lease's name.
   * @default - the component name (`kube-scheduler`, `kube-controller-manager`)
   */
  readonly resourceName?: string;
  /**
   * The Lease's namespace.
   * @default 'kube-system'
   */
  readonly resourceNamespace?: string;
}

/** The `leaderElection` block of component configuration (component-base LeaderElectionConfiguration). */
export interface LeaderElectionConfiguration {
  readonly leaderElect: boolean;
  readonly resourceLock: 'leases';
  readonly resourceName: string;
  readonly resourceNamespace: string;
  readonly leaseDuration: string;
  readonly renewDeadline: string;
  readonly retryPeriod: string;
}

/**
 * The `leaderElection` block for a component, always on the `leases` lock, with checked timings.
 * @throws BallastPropError on timings client-go would reject, a bad name or a version before 1.20
 */
export function controlPlaneLeaderElection(
  component: ControlPlaneComponent,
  options: ControlPlaneLeaderElectionOptions = {},
): LeaderElectionConfiguration {
  const where = `controlPlaneLeaderElection(${component})`;
  const problems = new PropProblems();
  problems.collect(() => targetVersion(where, options.kubernetesVersion));
  const resourceName = options.resourceName ?? component;
  const resourceNamespace = options.resourceNamespace ?? 'kube-system';
  for (const [prop, value] of [
    ['resourceName', resourceName],
    ['resourceNamespace', resourceNamespace],
  ] as const) {
    if (!DNS_SUBDOMAIN.test(value))
      problems.add(prop, value, 'must be a valid Kubernetes object name', 'use lower-case letters, digits and "-"');
  }
  const checked = problems.collect(() => LeaderElectionTimings.of(options.timings, where));
  problems.throwIfAny(where);
  const timings = (checked ?? LeaderElectionTimings.DEFAULT).toGoDurations();
  return {
    leaderElect: options.leaderElect ?? true,
    resourceLock: 'leases',
    resourceName,
    resourceNamespace,
    ...timings,
  };
}

/**
 * Command-line flags for a static pod manifest (`kube-controller-manager`, `kube-scheduler`):
 * `--leader-elect`, `--leader-elect-resource-lock=leases`, name, namespace and the three timings.
 * The lock is written out even though it is the default since 1.20, so a copied manifest never
 * inherits an older default.
 */
export function controlPlaneLeaderElectionFlags(
  component: ControlPlaneComponent,
  options: ControlPlaneLeaderElectionOptions = {},
): string[] {
  const block = controlPlaneLeaderElection(component, options);
  if (!block.leaderElect) return ['--leader-elect=false'];
  return [
    '--leader-elect=true',
    `--leader-elect-resource-lock=${block.resourceLock}`,
    `--leader-elect-resource-name=${block.resourceName}`,
    `--leader-elect-resource-namespace=${block.resourceNamespace}`,
    `--leader-elect-lease-duration=${block.leaseDuration}`,
    `--leader-elect-renew-deadline=${block.renewDeadline}`,
    `--leader-elect-retry-period=${block.retryPeriod}`,
  ];
}

/**
 * A KubeSchedulerConfiguration (for `kube-scheduler --config`) holding the leader-election block,
 * in the API version the target release reads: `kubescheduler.config.k8s.io/v1` from 1.25,
 * `v1beta3` in 1.23–1.24, `v1beta2` in 1.22, `v1beta1` in 1.20–1.21. Merge your profiles into it.
 */
export function kubeSchedulerConfiguration(options: ControlPlaneLeaderElectionOptions = {}) {
  const version = targetVersion('kubeSchedulerConfiguration', options.kubernetesVersion);
  const apiVersion = version.atLeast('1.25')
    ? 'v1'
    : version.atLeast('1.23')
      ? 'v1beta3'
      : version.atLeast('1.22')
        ? 'v1beta2'
        : 'v1beta1';
  return {
    apiVersion: `kubescheduler.config.k8s.io/${apiVersion}`,
    kind: 'KubeSchedulerConfiguration',
    leaderElection: controlPlaneLeaderElection('kube-scheduler', options),
  };
}

/**
 * A KubeControllerManagerConfiguration (`kubecontrollermanager.config.k8s.io/v1alpha1`), whose
 * leader-election block lives under `generic`. kube-controller-manager itself has no `--config`
 * flag: it reads flags only (use `controlPlaneLeaderElectionFlags`); this object is for tools
 * that carry the configuration type.
 */
export function kubeControllerManagerConfiguration(options: ControlPlaneLeaderElectionOptions = {}) {
  return {
    apiVersion: 'kubecontrollermanager.config.k8s.io/v1alpha1',
    kind: 'KubeControllerManagerConfiguration',
    generic: { leaderElection: controlPlaneLeaderElection('kube-controller-manager', options) },
  };
}

function targetVersion(where: string, value: string | KubeVersion | undefined): KubeVersion {
  let version: KubeVersion;
  try {
    version = typeof value === 'object' ? value : KubeVersion.target(value ?? DEFAULT_KUBERNETES_VERSION);
  } catch (error) {
    throw new BallastPropError(
      where,
      'kubernetesVersion',
      value,
      (error as Error).message,
      'write a quoted MAJOR.MINOR the rules know, such as "1.31"',
    );
  }
  return version;
}

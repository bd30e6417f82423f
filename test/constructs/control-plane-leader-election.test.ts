import { Duration } from 'cdk8s';
import {
  BallastPropError,
  controlPlaneLeaderElectionFlags,
  kubeControllerManagerConfiguration,
  kubeSchedulerConfiguration,
} from '../../constructs';
import { validateObjects } from '../../validators';

describe('control-plane leader election', () => {
  test('renders static-pod flags on the leases lock with the default timings', () => {
    expect(controlPlaneLeaderElectionFlags('kube-controller-manager')).toEqual([
      '--leader-elect=true',
      '--leader-elect-resource-lock=leases',
      '--leader-elect-resource-name=kube-controller-manager',
      '--leader-elect-resource-namespace=kube-system',
      '--leader-elect-lease-duration=15s',
      '--leader-elect-renew-deadline=10s',
      '--leader-elect-retry-period=2s',
    ]);
    expect(controlPlaneLeaderElectionFlags('kube-scheduler', { leaderElect: false })).toEqual(['--leader-elect=false']);
  });

  test('renders KubeSchedulerConfiguration in the API version of the target release', () => {
    expect(
      kubeSchedulerConfiguration({
        kubernetesVersion: '1.30',
        timings: { leaseDuration: Duration.seconds(60), renewDeadline: Duration.seconds(40) },
      }),
    ).toEqual({
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      leaderElection: {
        leaderElect: true,
        resourceLock: 'leases',
        resourceName: 'kube-scheduler',
        resourceNamespace: 'kube-system',
        leaseDuration: '60s',
        renewDeadline: '40s',
        retryPeriod: '2s',
      },
    });
    expect(kubeSchedulerConfiguration({ kubernetesVersion: '1.24' }).apiVersion).toBe(
      'kubescheduler.config.k8s.io/v1beta3',
    );
    expect(kubeSchedulerConfiguration({ kubernetesVersion: '1.22' }).apiVersion).toBe(
      'kubescheduler.config.k8s.io/v1beta2',
    );
  });

  test("puts the controller manager's block under generic", () => {
    const config = kubeControllerManagerConfiguration();
    expect(config.apiVersion).toBe('kubecontrollermanager.config.k8s.io/v1alpha1');
    expect(config.generic.leaderElection.resourceLock).toBe('leases');
  });

  test('what it renders passes the leader-election rules', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'kube-scheduler', namespace: 'kube-system' },
      spec: {
        containers: [
          {
            name: 'kube-scheduler',
            image: 'registry.k8s.io/kube-scheduler:v1.27.4',
            command: ['kube-scheduler', ...controlPlaneLeaderElectionFlags('kube-scheduler')],
          },
        ],
      },
    };
    const findings = validateObjects(
      [pod, kubeSchedulerConfiguration(), kubeControllerManagerConfiguration()].map((object) => ({ object })),
    ).findings;
    expect(findings.filter((f) => /leader|lease/.test(f.rule))).toEqual([]);
  });

  test.each([
    [{ leaseDuration: Duration.seconds(10) }, /leaseDuration \(10s\) must be greater than renewDeadline/],
    [{ renewDeadline: Duration.seconds(2), retryPeriod: Duration.seconds(2) }, /1.2 × retryPeriod/],
    [{ leaseDuration: Duration.seconds(0) }, /leaseDuration must be greater than zero/],
  ])('refuses timings client-go rejects: %j', (timings, message) => {
    expect(() => controlPlaneLeaderElectionFlags('kube-scheduler', { timings })).toThrow(BallastPropError);
    expect(() => kubeSchedulerConfiguration({ timings })).toThrow(message);
  });

  test('refuses versions before 1.20 and invalid lock names', () => {
    expect(() => kubeSchedulerConfiguration({ kubernetesVersion: '1.19' })).toThrow(/use 1.20 to 1.35/);
    expect(() => controlPlaneLeaderElectionFlags('kube-scheduler', { resourceName: 'Kube Scheduler' })).toThrow(
      /invalid resourceName/,
    );
  });
});

import { findingsFor, ruleHits } from '../../../support/findings';
import { parseGoDuration } from '../../../../validators';
import { staticPod } from './fixtures';

const RULE = 'invalid-leader-election-timings';
const scheduler = (leaderElection: Record<string, unknown>) => ({
  apiVersion: 'kubescheduler.config.k8s.io/v1',
  kind: 'KubeSchedulerConfiguration',
  leaderElection,
});

describe('parseGoDuration', () => {
  test.each([
    ['15s', 15000],
    ['1m30s', 90000],
    ['500ms', 500],
    ['1.5s', 1500],
    ['0', 0],
    ['-2s', -2000],
    ['1h', 3600000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });
  test.each(['15', 's', '', '1d', '15 s', 'abc'])('rejects %j as Go does', (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });
});

describe(RULE, () => {
  test('refuses leaseDuration <= renewDeadline in flags, pointing at the lease duration flag', () => {
    const pod = staticPod([
      'kube-controller-manager',
      '--leader-elect-lease-duration=10s',
      '--leader-elect-renew-deadline=10s',
    ]);
    expect(ruleHits([pod], RULE)).toEqual([
      {
        kind: 'Pod',
        name: 'kube-controller-manager',
        path: 'spec.containers[0].command[1]',
        severity: 'error',
        suppressed: false,
      },
    ]);
  });

  test('refuses renewDeadline <= 1.2 × retryPeriod, taking unset timings at their defaults', () => {
    const pod = staticPod(['kube-controller-manager', '--leader-elect-retry-period', '9s']);
    expect(ruleHits([pod], RULE).map((hit) => hit.path)).toEqual(['spec.containers[0].command[2]']);
    expect(findingsFor([pod]).find((f) => f.rule === RULE)?.message).toContain('1.2 × retryPeriod');
  });

  test('refuses negative and unit-less values in component configuration, and zero in flags', () => {
    expect(ruleHits([scheduler({ leaseDuration: '15s', renewDeadline: '10s', retryPeriod: '-2s' })], RULE)).toEqual([
      {
        kind: 'KubeSchedulerConfiguration',
        name: undefined,
        path: 'leaderElection.retryPeriod',
        severity: 'error',
        suppressed: false,
      },
    ]);
    expect(ruleHits([scheduler({ leaseDuration: 15 })], RULE).map((hit) => hit.path)).toEqual([
      'leaderElection.leaseDuration',
    ]);
    expect(
      ruleHits([staticPod(['kube-scheduler', '--leader-elect-lease-duration=15'], 'kube-scheduler')], RULE),
    ).toHaveLength(1);
    // A flag sets the value itself: zero stays zero, and client-go refuses it.
    expect(
      ruleHits([staticPod(['kube-scheduler', '--leader-elect-retry-period=0s'], 'kube-scheduler')], RULE).map(
        (hit) => hit.path,
      ),
    ).toEqual(['spec.containers[0].command[1]']);
  });

  // tkestack/galaxy yaml/scheduler-policy.yaml (held-out-560): component-base's defaulting
  // (RecommendedDefaultLeaderElectionConfiguration) replaces a zero duration with the default.
  test('real world: zero timings in a component configuration are its defaults, 15s/10s/2s', () => {
    const galaxy = {
      apiVersion: 'kubescheduler.config.k8s.io/v1beta3',
      kind: 'KubeSchedulerConfiguration',
      leaderElection: {
        leaderElect: true,
        leaseDuration: '0s',
        renewDeadline: '0s',
        retryPeriod: '0s',
        resourceLock: '',
      },
    };
    expect(ruleHits([galaxy], RULE)).toEqual([]);
    // The defaults fill only the zeros: a written renewDeadline above the defaulted leaseDuration still fails.
    expect(ruleHits([scheduler({ leaseDuration: '0s', renewDeadline: '20s' })], RULE).map((hit) => hit.path)).toEqual([
      'leaderElection.renewDeadline',
    ]);
  });

  test('passes valid and default timings, and timings of a disabled election', () => {
    expect(
      ruleHits(
        [
          staticPod([
            'kube-controller-manager',
            '--leader-elect-lease-duration=30s',
            '--leader-elect-renew-deadline=20s',
            '--leader-elect-retry-period=4s',
          ]),
          staticPod(['kube-scheduler', '--leader-elect=true'], 'kube-scheduler'),
          scheduler({ leaderElect: true, leaseDuration: '15s', renewDeadline: '10s', retryPeriod: '2s' }),
          scheduler({ leaderElect: false, leaseDuration: '1s', renewDeadline: '10s' }),
        ],
        RULE,
      ),
    ).toEqual([]);
  });
});

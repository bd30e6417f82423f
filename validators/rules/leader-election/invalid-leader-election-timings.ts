import { LEADER_ELECTION_SETTING_KINDS } from '../scopes';
import { valueExcerpt } from '../../value-excerpt';
import { Rule } from '../../rule';
import { parseGoDuration } from '../../go-duration';
import {
  LeaderElectionSettings,
  WrittenSetting,
  leaderElectionDisabled,
  leaderElectionSettings,
} from './leader-election-settings';
import { DEFAULT_LEADER_ELECTION_TIMINGS_MS, LeaderElectionTiming, leaderElectionTimingProblems } from './timings';

const TIMINGS: readonly LeaderElectionTiming[] = ['leaseDuration', 'renewDeadline', 'retryPeriod'];

const FLAG_NAMES: Readonly<Record<LeaderElectionTiming, string>> = {
  leaseDuration: '--leader-elect-lease-duration',
  renewDeadline: '--leader-elect-renew-deadline',
  retryPeriod: '--leader-elect-retry-period',
};

function settingName(settings: LeaderElectionSettings, timing: LeaderElectionTiming): string {
  return settings.origin === 'flags' ? FLAG_NAMES[timing] : `leaderElection.${timing}`;
}

function durationOf(setting: WrittenSetting): number | undefined {
  // metav1.Duration only decodes from a string: `leaseDuration: 15` fails like `--leader-elect-lease-duration=15`.
  return typeof setting.value === 'string' ? parseGoDuration(setting.value) : undefined;
}

export const invalidLeaderElectionTimings: Rule = {
  id: 'invalid-leader-election-timings',
  severity: 'error',
  scope: LEADER_ELECTION_SETTING_KINDS,
  summary: 'Leader-election timings that client-go rejects (leaseDuration > renewDeadline > 1.2 × retryPeriod > 0).',
  why:
    "client-go's NewLeaderElector refuses leaseDuration <= renewDeadline, renewDeadline <= 1.2 × " +
    'retryPeriod and any timing <= 0 (in a component configuration, a zero duration is replaced by the ' +
    'default before it gets there), and the component exits at start-up: on a control plane, no ' +
    'controller or scheduler runs (incident 3 showed what a cluster without its controllers looks like). ' +
    'A value Go cannot parse as a duration ("15" without a unit) fails the same way.',
  fix:
    'Use Go durations with a unit and keep leaseDuration > renewDeadline > 1.2 × retryPeriod; the ' +
    'control-plane defaults 15s / 10s / 2s are a safe start.',
  example: {
    bad: [
      'apiVersion: kubescheduler.config.k8s.io/v1',
      'kind: KubeSchedulerConfiguration',
      'leaderElection:',
      '  leaderElect: true',
      '  leaseDuration: 10s',
      '  renewDeadline: 15s',
      '  retryPeriod: 2s',
    ].join('\n'),
    good: [
      'apiVersion: kubescheduler.config.k8s.io/v1',
      'kind: KubeSchedulerConfiguration',
      'leaderElection:',
      '  leaderElect: true',
      '  leaseDuration: 15s',
      '  renewDeadline: 10s',
      '  retryPeriod: 2s',
    ].join('\n'),
  },
  check(context) {
    for (const settings of leaderElectionSettings(context.index)) {
      if (leaderElectionDisabled(settings)) continue;
      // A zero the configuration's defaulting replaces is no value written (tkestack/galaxy's
      // scheduler-policy.yaml writes 0s for all three, and kube-scheduler runs on 15s/10s/2s).
      const written = TIMINGS.filter(
        (timing) =>
          settings[timing] !== undefined &&
          !(settings.zeroTimingIsDefault === true && durationOf(settings[timing] as WrittenSetting) === 0),
      );
      if (written.length === 0) continue;
      const values = { ...DEFAULT_LEADER_ELECTION_TIMINGS_MS };
      let unparsable = false;
      for (const timing of written) {
        const setting = settings[timing] as WrittenSetting;
        const milliseconds = durationOf(setting);
        if (milliseconds === undefined) {
          unparsable = true;
          context.report(settings.owner, {
            path: setting.path,
            message:
              `${settings.description} sets ${settingName(settings, timing)} to ${valueExcerpt(setting.value)}, ` +
              'which is not a Go duration: the component fails to start. Write a number with a unit, such as "15s".',
          });
        } else {
          values[timing] = milliseconds;
        }
      }
      if (unparsable) continue;
      for (const { timing, problem } of leaderElectionTimingProblems(values)) {
        // Point at a value the user wrote: the one the problem names, else the first written.
        const setting = settings[written.includes(timing) ? timing : (written[0] ?? timing)] as WrittenSetting;
        const defaulted = TIMINGS.filter((name) => !written.includes(name));
        context.report(settings.owner, {
          path: setting.path,
          message:
            `${settings.description} has leader-election timings client-go rejects at start-up: ${problem}` +
            `${defaulted.length > 0 ? ` (${defaulted.join(', ')} at the default)` : ''}.`,
        });
      }
    }
  },
};

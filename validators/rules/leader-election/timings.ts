import { formatGoDuration } from '../../go-duration';

/** Leader-election timings in milliseconds. */
export interface LeaderElectionTimingsMs {
  /** How long a lease is valid after its last renewal: followers wait this long before taking over. */
  readonly leaseDuration: number;
  /** How long the leader keeps retrying a renewal before it gives up leadership. */
  readonly renewDeadline: number;
  /** How long clients wait between attempts to acquire or renew. */
  readonly retryPeriod: number;
}

/** kube-controller-manager's and kube-scheduler's defaults (component-base), also controller-runtime's. */
export const DEFAULT_LEADER_ELECTION_TIMINGS_MS: LeaderElectionTimingsMs = {
  leaseDuration: 15_000,
  renewDeadline: 10_000,
  retryPeriod: 2_000,
};

/** client-go `leaderelection.JitterFactor`: retries happen up to 1.2 × retryPeriod apart. */
export const LEADER_ELECTION_JITTER_FACTOR = 1.2;

/** Which timing a problem is about, so callers can point at the field to change. */
export type LeaderElectionTiming = keyof LeaderElectionTimingsMs;

export interface LeaderElectionTimingProblem {
  readonly timing: LeaderElectionTiming;
  readonly problem: string;
}

/**
 * The checks client-go's `NewLeaderElector` makes before it runs (tools/leaderelection): every
 * timing > 0, leaseDuration > renewDeadline, renewDeadline > 1.2 × retryPeriod. A component
 * given timings that fail them exits at start-up. Returns every problem, not the first.
 */
export function leaderElectionTimingProblems(timings: LeaderElectionTimingsMs): LeaderElectionTimingProblem[] {
  const problems: LeaderElectionTimingProblem[] = [];
  for (const timing of ['leaseDuration', 'renewDeadline', 'retryPeriod'] as const) {
    if (!(timings[timing] > 0)) problems.push({ timing, problem: `${timing} must be greater than zero` });
  }
  if (problems.length > 0) return problems;
  const { leaseDuration, renewDeadline, retryPeriod } = timings;
  if (leaseDuration <= renewDeadline) {
    problems.push({
      timing: 'leaseDuration',
      problem: `leaseDuration (${formatGoDuration(leaseDuration)}) must be greater than renewDeadline (${formatGoDuration(renewDeadline)})`,
    });
  }
  const jitteredRetry = LEADER_ELECTION_JITTER_FACTOR * retryPeriod;
  if (renewDeadline <= jitteredRetry) {
    problems.push({
      timing: 'renewDeadline',
      problem:
        `renewDeadline (${formatGoDuration(renewDeadline)}) must be greater than 1.2 × retryPeriod ` +
        `(${formatGoDuration(Math.round(jitteredRetry))}), or the leader cannot retry a renewal before its deadline`,
    });
  }
  return problems;
}

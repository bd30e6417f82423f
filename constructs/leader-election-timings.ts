import { Duration } from 'cdk8s';
import { IConstruct } from 'constructs';
import {
  DEFAULT_LEADER_ELECTION_TIMINGS_MS,
  LeaderElectionTimingsMs,
  formatGoDuration,
  leaderElectionTimingProblems,
} from '../validators';
import { BallastPropError } from './prop-error';

/** Leader-election timings, as client-go's LeaderElectionConfig takes them. */
export interface LeaderElectionTimingsProps {
  /**
   * How long a lease stays valid after its last renewal: after a leader dies, followers wait this
   * long before one takes over. Must be greater than `renewDeadline`.
   * @default Duration.seconds(15)
   */
  readonly leaseDuration?: Duration;
  /**
   * How long the leader keeps retrying a renewal before it steps down. Must be greater than
   * 1.2 × `retryPeriod` (client-go's jitter factor).
   * @default Duration.seconds(10)
   */
  readonly renewDeadline?: Duration;
  /**
   * How long clients wait between attempts to acquire or renew the lease.
   * @default Duration.seconds(2)
   */
  readonly retryPeriod?: Duration;
}

/**
 * Leader-election timings checked the way client-go's `NewLeaderElector` checks them:
 * leaseDuration > renewDeadline > 1.2 × retryPeriod, all > 0. Timings that would make the program
 * exit at start-up in the cluster are refused here, when the construct is built.
 */
export class LeaderElectionTimings {
  /** The control-plane defaults: 15s / 10s / 2s. */
  public static readonly DEFAULT = new LeaderElectionTimings(DEFAULT_LEADER_ELECTION_TIMINGS_MS);

  /**
   * Resolves defaults and checks the timings.
   * @param where the construct, or a description of the caller, named in the error
   * @param prop the prop the timings were given as, named in the error
   * @throws BallastPropError listing every violated check
   */
  public static of(
    props: LeaderElectionTimingsProps | undefined,
    where: IConstruct | string,
    prop = 'timings',
  ): LeaderElectionTimings {
    const milliseconds = (value: Duration | undefined, fallback: number) =>
      value === undefined ? fallback : value.toMilliseconds({ integral: false });
    const timings: LeaderElectionTimingsMs = {
      leaseDuration: milliseconds(props?.leaseDuration, DEFAULT_LEADER_ELECTION_TIMINGS_MS.leaseDuration),
      renewDeadline: milliseconds(props?.renewDeadline, DEFAULT_LEADER_ELECTION_TIMINGS_MS.renewDeadline),
      retryPeriod: milliseconds(props?.retryPeriod, DEFAULT_LEADER_ELECTION_TIMINGS_MS.retryPeriod),
    };
    const problems = leaderElectionTimingProblems(timings);
    if (problems.length > 0) {
      throw new BallastPropError(
        where,
        prop,
        new LeaderElectionTimings(timings).toGoDurations(),
        `client-go would refuse to start leader election: ${problems.map((p) => p.problem).join('; ')}`,
        'keep leaseDuration > renewDeadline > 1.2 × retryPeriod > 0, for example the defaults 15s / 10s / 2s',
      );
    }
    return new LeaderElectionTimings(timings);
  }

  private constructor(private readonly milliseconds: LeaderElectionTimingsMs) {}

  /** The timings in milliseconds. */
  public toMilliseconds(): LeaderElectionTimingsMs {
    return { ...this.milliseconds };
  }

  /** The timings as Go duration strings (`15s`), the form of the flags and of component configuration. */
  public toGoDurations(): {
    readonly leaseDuration: string;
    readonly renewDeadline: string;
    readonly retryPeriod: string;
  } {
    return {
      leaseDuration: formatGoDuration(this.milliseconds.leaseDuration),
      renewDeadline: formatGoDuration(this.milliseconds.renewDeadline),
      retryPeriod: formatGoDuration(this.milliseconds.retryPeriod),
    };
  }
}

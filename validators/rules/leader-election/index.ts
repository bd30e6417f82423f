import { Rule } from '../../rule';
import { invalidLeaderElectionTimings } from './invalid-leader-election-timings';
import { leaderElectionWithoutLeaseRbac } from './leader-election-without-lease-rbac';
import { leaderLockRbacOnEndpointsOrConfigmaps } from './leader-lock-rbac-on-endpoints-or-configmaps';
import { legacyLeaderElectionLock } from './legacy-leader-election-lock';
import { overbroadLeaseRbac } from './overbroad-lease-rbac';

export const LEADER_ELECTION_RULES: readonly Rule[] = [
  legacyLeaderElectionLock,
  invalidLeaderElectionTimings,
  leaderLockRbacOnEndpointsOrConfigmaps,
  overbroadLeaseRbac,
  leaderElectionWithoutLeaseRbac,
];

export {
  DEFAULT_LEADER_ELECTION_TIMINGS_MS,
  LEADER_ELECTION_JITTER_FACTOR,
  leaderElectionTimingProblems,
} from './timings';
export type { LeaderElectionTiming, LeaderElectionTimingProblem, LeaderElectionTimingsMs } from './timings';
export { LEGACY_LOCKS } from './legacy-leader-election-lock';

/**
 * The kubelet eviction policy of a node pool: typed, checked the way the kubelet checks it, and
 * merged with the kubelet's defaults for the target version so no default signal is silently
 * lost (incident 4). Pure data: no cdk8s import, so the Pulumi node stack uses it as is.
 */
import { KubeVersion } from '../validators/kube-version';
import {
  EVICTION_SIGNALS,
  EvictionSignal,
  MERGE_DEFAULT_EVICTION_SETTINGS_SINCE,
  compareThresholds,
  defaultEvictionHard,
  minimumReclaimError,
  parseThreshold,
} from '../validators/rules/eviction/eviction-signals';
import { parseGoDuration } from '../validators/go-duration';
import { KubeletEvictionSettings } from '../templates/kubelet-eviction-settings';
import { EvictionThresholdValue, checkEvictionThreshold } from './eviction-threshold';
import { BallastPropError, PropProblems } from './prop-error';

/** A Go duration with a unit: `'90s'`, `'2m'`, `'1m30s'`, `'1h'`. */

/** The largest value of a Kubernetes int32 field (evictionMaxPodGracePeriod). */
const MAX_INT32 = 2_147_483_647;

export type EvictionGracePeriod = `${number}${'s' | 'm' | 'h'}` | `${number}m${number}s` | `${number}h${number}m`;

/** A soft threshold cannot exist without its grace period: the kubelet refuses to start otherwise. */
export interface SoftEvictionThreshold {
  /** Evict gracefully once the signal stays below this for the grace period. */
  readonly threshold: EvictionThresholdValue;
  /** How long the signal must stay below the threshold before the kubelet evicts. */
  readonly gracePeriod: EvictionGracePeriod;
}

/** How the policy treats the kubelet defaults for signals it does not name. */
export type EvictionDefaults =
  /** Write every default signal explicitly (works on every version and with flags). */
  | 'explicit'
  /** 1.33+: write only the changed signals and `mergeDefaultEvictionSettings: true`. */
  | 'merge-by-kubelet';

export interface KubeletEvictionPolicyProps {
  /** Kubernetes version of the nodes' kubelet, `MAJOR.MINOR`: it decides the default signals (imagefs.inodesFree since 1.30). */
  readonly kubernetesVersion: string;
  /**
   * Hard thresholds to change; every other default signal keeps the kubelet's default value.
   * @default - the kubelet defaults (memory.available 100Mi, nodefs.available 10%, nodefs.inodesFree 5%, imagefs.available 15%, imagefs.inodesFree 5% from 1.30)
   */
  readonly hard?: Partial<Record<EvictionSignal, EvictionThresholdValue>>;
  /**
   * Soft thresholds, each with its grace period; each must be above the hard threshold of its signal.
   * @default - none
   */
  readonly soft?: Partial<Record<EvictionSignal, SoftEvictionThreshold>>;
  /**
   * How much to reclaim beyond a threshold once eviction starts, so the node does not hover at it.
   * @default - none (the kubelet's default, 0)
   */
  readonly minimumReclaim?: Partial<Record<EvictionSignal, EvictionThresholdValue>>;
  /**
   * Seconds a pod evicted by a soft threshold gets to stop. The kubelet's default, 0, kills at once.
   * @default 60 when soft thresholds are set, otherwise not written
   */
  readonly maxPodGracePeriodSeconds?: number;
  /**
   * Whether the output names every default signal or, from 1.33, lets the kubelet merge them.
   * @default 'explicit'
   */
  readonly defaults?: EvictionDefaults;
}

const OWNER = 'KubeletEvictionPolicy';
const DEFAULT_MAX_POD_GRACE_PERIOD_SECONDS = 60;
const DISK_SIGNALS: readonly string[] = ['nodefs.available', 'imagefs.available'];
const MINIMUM_DISK_PERCENT = 5;

export class KubeletEvictionPolicy {
  /** The kubelet defaults of a version, as a policy. */
  public static kubeletDefaults(kubernetesVersion: string): KubeletEvictionPolicy {
    return new KubeletEvictionPolicy({ kubernetesVersion });
  }

  public readonly kubernetesVersion: KubeVersion;
  /** Every hard threshold the kubelet will use, in signal order (defaults merged in). */
  public readonly hardThresholds: Readonly<Partial<Record<EvictionSignal, string>>>;
  private readonly props: KubeletEvictionPolicyProps;
  private readonly maxPodGracePeriodSeconds?: number;

  constructor(props: KubeletEvictionPolicyProps) {
    try {
      this.kubernetesVersion = KubeVersion.target(props.kubernetesVersion);
    } catch (error) {
      throw new BallastPropError(
        OWNER,
        'kubernetesVersion',
        props.kubernetesVersion,
        (error as Error).message,
        'use e.g. "1.30"',
      );
    }
    this.props = props;
    const version = this.kubernetesVersion;
    const problems = new PropProblems();
    if (props.defaults === 'merge-by-kubelet' && version.before(MERGE_DEFAULT_EVICTION_SETTINGS_SINCE)) {
      problems.add(
        'defaults',
        props.defaults,
        `mergeDefaultEvictionSettings exists from ${MERGE_DEFAULT_EVICTION_SETTINGS_SINCE}; on ${version} the kubelet would drop every default signal not written`,
        "use defaults: 'explicit' (the default)",
      );
    }

    const hard: Partial<Record<EvictionSignal, string>> = { ...defaultEvictionHard(version) };
    for (const [signal, value] of Object.entries(props.hard ?? {})) {
      const checked = problems.collect(() => checkEvictionThreshold(OWNER, `hard.${signal}`, signal, value as string));
      if (checked === undefined) continue;
      hard[signal as EvictionSignal] = checked;
      const parsed = parseThreshold(signal, value);
      if (
        DISK_SIGNALS.includes(signal) &&
        parsed.ok &&
        parsed.value.kind === 'percentage' &&
        parsed.value.percent < MINIMUM_DISK_PERCENT
      ) {
        problems.add(
          `hard.${signal}`,
          value,
          `below ${MINIMUM_DISK_PERCENT}% the disk fills up before the kubelet evicts anything (incident 3 began with a full disk)`,
          `keep ${MINIMUM_DISK_PERCENT}% or more, or give an absolute amount such as "20Gi" on very large disks`,
        );
      }
    }
    this.hardThresholds = ordered(hard);

    for (const [signal, soft] of Object.entries(props.soft ?? {}) as Array<[EvictionSignal, SoftEvictionThreshold]>) {
      const threshold = problems.collect(() =>
        checkEvictionThreshold(OWNER, `soft.${signal}.threshold`, signal, soft?.threshold),
      );
      const milliseconds = parseGoDuration(String(soft?.gracePeriod ?? ''));
      if (milliseconds === undefined || milliseconds <= 0) {
        problems.add(
          `soft.${signal}.gracePeriod`,
          soft?.gracePeriod,
          'a soft threshold needs a positive grace period (the kubelet refuses to start without one)',
          'write e.g. "2m" or "90s"',
        );
      }
      if (threshold === undefined) continue;
      const hardValue = this.hardThresholds[signal];
      const softParsed = parseThreshold(signal, soft.threshold);
      const hardParsed = hardValue === undefined ? undefined : parseThreshold(signal, hardValue);
      if (softParsed.ok && hardParsed?.ok && (compareThresholds(softParsed.value, hardParsed.value) ?? 1) <= 0) {
        problems.add(
          `soft.${signal}.threshold`,
          soft.threshold,
          `not above the hard threshold ${signal}<${hardValue}: it would never fire first`,
          `write a value above ${hardValue}`,
        );
      }
    }
    for (const [signal, value] of Object.entries(props.minimumReclaim ?? {})) {
      const error = typeof value === 'string' ? minimumReclaimError(signal, value) : 'not a string';
      if (!(EVICTION_SIGNALS as readonly string[]).includes(signal) || error !== undefined) {
        problems.add(
          `minimumReclaim.${signal}`,
          value,
          error ?? 'unknown eviction signal',
          'write a positive percentage or quantity for a known signal',
        );
      }
    }
    const hasSoft = Object.keys(props.soft ?? {}).length > 0;
    const maxGrace = props.maxPodGracePeriodSeconds ?? (hasSoft ? DEFAULT_MAX_POD_GRACE_PERIOD_SECONDS : undefined);
    // The kubelet reads an int32: 1e21 is an integer to JavaScript but no value the kubelet accepts.
    if (
      maxGrace !== undefined &&
      (!Number.isSafeInteger(maxGrace) || maxGrace < 0 || maxGrace > MAX_INT32 || (hasSoft && maxGrace === 0))
    ) {
      problems.add(
        'maxPodGracePeriodSeconds',
        maxGrace,
        hasSoft && maxGrace === 0
          ? 'with soft thresholds, 0 kills evicted pods without any grace'
          : `must be a whole number of seconds from 0 to ${MAX_INT32}`,
        `use e.g. ${DEFAULT_MAX_POD_GRACE_PERIOD_SECONDS}`,
      );
    }
    problems.throwIfAny(OWNER);
    this.maxPodGracePeriodSeconds = maxGrace;
  }

  /**
   * The settings for the KubeletConfiguration (drop-in or config.yaml). With `defaults: 'explicit'`
   * every default signal is named; on 1.33+ `mergeDefaultEvictionSettings` is written either way,
   * so the choice is visible in the file.
   */
  public configurationSettings(): KubeletEvictionSettings {
    const merge = this.props.defaults === 'merge-by-kubelet';
    const changedHard = ordered(
      Object.fromEntries(
        Object.keys(this.props.hard ?? {}).map((signal) => [
          signal,
          this.hardThresholds[signal as EvictionSignal] as string,
        ]),
      ),
    );
    return {
      ...(this.kubernetesVersion.atLeast(MERGE_DEFAULT_EVICTION_SETTINGS_SINCE)
        ? { mergeDefaultEvictionSettings: merge }
        : {}),
      ...this.commonSettings(merge ? changedHard : this.hardThresholds),
    };
  }

  /** The settings for kubelet flags: always every default signal, since flags cannot merge defaults. */
  public flagSettings(): KubeletEvictionSettings {
    return this.commonSettings(this.hardThresholds);
  }

  private commonSettings(hard: Readonly<Record<string, string>>): KubeletEvictionSettings {
    const soft = this.props.soft ?? {};
    const signals = EVICTION_SIGNALS.filter((signal) => soft[signal] !== undefined);
    const settings: KubeletEvictionSettings = {
      evictionHard: hard,
      ...(signals.length > 0
        ? {
            evictionSoft: Object.fromEntries(signals.map((signal) => [signal, soft[signal]!.threshold.trim()])),
            evictionSoftGracePeriod: Object.fromEntries(signals.map((signal) => [signal, soft[signal]!.gracePeriod])),
          }
        : {}),
      ...(Object.keys(this.props.minimumReclaim ?? {}).length > 0
        ? { evictionMinimumReclaim: ordered(this.props.minimumReclaim as Record<string, string>) }
        : {}),
      ...(this.maxPodGracePeriodSeconds !== undefined
        ? { evictionMaxPodGracePeriod: this.maxPodGracePeriodSeconds }
        : {}),
    };
    return settings;
  }
}

/** The entries in the kubelet's signal order, so output never depends on how props were written. */
function ordered(map: Partial<Record<string, string>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const signal of EVICTION_SIGNALS) {
    const value = map[signal];
    if (value !== undefined) result[signal] = value;
  }
  return result;
}

/**
 * What the kubelet knows about eviction signals and threshold values, as plain data and pure
 * functions: the rules, the typed policy in constructs/ and the node stack all use these, so they
 * agree with each other and with the kubelet (`pkg/kubelet/eviction/helpers.go`, `api/types.go`,
 * `defaults_linux.go`).
 */
import { parseGoDuration } from '../../go-duration';
import { KubeVersion } from '../../kube-version';
import { parseQuantity } from '../../quantity';

/** Every signal the kubelet accepts; any other key makes it refuse to start. */
export const EVICTION_SIGNALS = [
  'memory.available',
  'nodefs.available',
  'nodefs.inodesFree',
  'imagefs.available',
  'imagefs.inodesFree',
  'containerfs.available',
  'containerfs.inodesFree',
  'pid.available',
  'allocatableMemory.available',
] as const;

export type EvictionSignal = (typeof EVICTION_SIGNALS)[number];

export function isEvictionSignal(value: string): value is EvictionSignal {
  return (EVICTION_SIGNALS as readonly string[]).includes(value);
}

/** The first version whose default evictionHard includes imagefs.inodesFree. */
export const IMAGEFS_INODES_DEFAULT_SINCE = '1.30';
/** The first version with the KubeletConfiguration field `mergeDefaultEvictionSettings`. */
export const MERGE_DEFAULT_EVICTION_SETTINGS_SINCE = '1.33';

/** The kubelet's default hard thresholds on Linux for a version, in signal order. */
export function defaultEvictionHard(version: KubeVersion): Readonly<Partial<Record<EvictionSignal, string>>> {
  const defaults: Partial<Record<EvictionSignal, string>> = {
    'memory.available': '100Mi',
    'nodefs.available': '10%',
    'nodefs.inodesFree': '5%',
    'imagefs.available': '15%',
  };
  if (version.atLeast(IMAGEFS_INODES_DEFAULT_SINCE)) defaults['imagefs.inodesFree'] = '5%';
  return defaults;
}

/** A parsed threshold: a share of capacity, or an absolute amount (bytes, inodes or pids). */
export type ThresholdValue =
  { readonly kind: 'percentage'; readonly percent: number } | { readonly kind: 'quantity'; readonly amount: number };

/** Parsing result: a value, "disabled" for the kubelet's silent 0%/100%, or the kubelet's error. */
export type ParsedThreshold =
  | { readonly ok: true; readonly value: ThresholdValue; readonly disables: boolean }
  | { readonly ok: false; readonly error: string };

/** Parses a threshold value with the kubelet's own checks and words (`parseThresholdStatement`). */
export function parseThreshold(signal: string, text: string): ParsedThreshold {
  const value = text.trim();
  if (value.endsWith('%')) {
    const number = value.slice(0, -1);
    if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(number)) return { ok: false, error: `invalid percentage "${value}"` };
    const percent = Number(number);
    if (percent < 0) return { ok: false, error: `eviction percentage threshold ${signal} must be >= 0%: ${value}` };
    if (percent > 100) return { ok: false, error: `eviction percentage threshold ${signal} must be <= 100%: ${value}` };
    return { ok: true, value: { kind: 'percentage', percent }, disables: value === '0%' || value === '100%' };
  }
  const amount = parseQuantity(value);
  if (amount === undefined)
    return {
      ok: false,
      error: `"${value}" is neither a percentage nor a quantity (quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$')`,
    };
  if (amount <= 0) return { ok: false, error: `eviction threshold ${signal} must be positive: ${value}` };
  return { ok: true, value: { kind: 'quantity', amount }, disables: false };
}

/** Checks a minimum-reclaim value as the kubelet does (`parseMinimumReclaims`); undefined when valid. */
export function minimumReclaimError(signal: string, text: string): string | undefined {
  const value = text.trim();
  if (value.endsWith('%')) {
    const number = value.slice(0, -1);
    if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(number)) return `invalid percentage "${value}"`;
    return Number(number) <= 0 ? `eviction percentage minimum reclaim ${signal} must be positive: ${value}` : undefined;
  }
  const amount = parseQuantity(value);
  if (amount === undefined) return `"${value}" is neither a percentage nor a quantity`;
  return amount < 0 ? `negative eviction minimum reclaim specified for ${signal}` : undefined;
}

/** Checks a soft grace period as the kubelet does (`parseGracePeriods`); undefined when valid. */
export function gracePeriodError(text: string): string | undefined {
  const milliseconds = parseGoDuration(text);
  if (milliseconds === undefined) return `time: invalid duration "${text}"`;
  return milliseconds < 0 ? `invalid eviction grace period specified: ${text}, must be a positive value` : undefined;
}

/**
 * -1, 0 or 1 when both values can be compared without knowing the node's capacity (both
 * percentages or both quantities); undefined otherwise.
 */
export function compareThresholds(a: ThresholdValue, b: ThresholdValue): number | undefined {
  if (a.kind === 'percentage' && b.kind === 'percentage') return Math.sign(a.percent - b.percent);
  if (a.kind === 'quantity' && b.kind === 'quantity') return Math.sign(a.amount - b.amount);
  return undefined;
}

/**
 * Typed eviction threshold values. A threshold is a share of capacity (`'10%'`) or an amount with
 * a unit (`'500Mi'`); the types refuse `'5'` (5 bytes? 5%?) and `'105%'` at compile time, and
 * `evictionThreshold()` re-checks at run time for values that arrive untyped (from JSON, from the
 * Pulumi config). Pure data: no cdk8s import, so the node stack can use it too.
 */
import { isEvictionSignal, parseThreshold } from '../validators/rules/eviction/eviction-signals';
import { BallastPropError } from './prop-error';

type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
type NonZeroDigit = Exclude<Digit, '0'>;
/** 1..99, written without leading zeros. */
type WholePercent = NonZeroDigit | `${NonZeroDigit}${Digit}`;

/**
 * A percentage of capacity strictly between 0% and 100%, with at most one decimal: `'5%'`,
 * `'7.5%'`, `'0.5%'`. 0% and 100% are excluded because the kubelet silently ignores them.
 */
export type EvictionPercentage = `${WholePercent}%` | `${WholePercent | '0'}.${Digit}%`;

/** Binary (`Ki`..`Ei`) or decimal (`k`..`E`) unit suffixes of Kubernetes quantities. */
export type QuantityUnit = 'Ki' | 'Mi' | 'Gi' | 'Ti' | 'Pi' | 'Ei' | 'k' | 'M' | 'G' | 'T' | 'P' | 'E';

/** An amount with a unit: `'100Mi'`, `'2Gi'`, `'500k'` (inodes, pids). A bare number is refused. */
export type EvictionQuantity = `${number}${QuantityUnit}`;

/** Either form. */
export type EvictionThresholdValue = EvictionPercentage | EvictionQuantity;

/**
 * Checks a threshold that may not have passed through the types (JSON, Pulumi config) with the
 * kubelet's own rules plus ballast's: a unit is required, 0%/100% are refused.
 * @throws BallastPropError naming the prop, the value and the fix
 */
export function checkEvictionThreshold(
  owner: string,
  prop: string,
  signal: string,
  value: string,
): EvictionThresholdValue {
  if (!isEvictionSignal(signal)) {
    throw new BallastPropError(
      owner,
      prop,
      signal,
      'the kubelet refuses to start on an unknown eviction signal',
      'use one of EVICTION_SIGNALS',
    );
  }
  if (typeof value !== 'string') {
    throw new BallastPropError(owner, prop, value, 'a threshold is a string', 'write "10%" or "500Mi"');
  }
  const parsed = parseThreshold(signal, value);
  if (!parsed.ok)
    throw new BallastPropError(
      owner,
      prop,
      value,
      `the kubelet refuses it (${parsed.error})`,
      'write a percentage strictly between 0% and 100% or a positive quantity with a unit',
    );
  if (parsed.disables)
    throw new BallastPropError(
      owner,
      prop,
      value,
      `the kubelet silently ignores ${value}, leaving ${signal} without a threshold`,
      'write the threshold you mean, e.g. "5%"',
    );
  if (parsed.value.kind === 'quantity' && !/(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)$/.test(value.trim())) {
    throw new BallastPropError(
      owner,
      prop,
      value,
      'a bare number is ambiguous (bytes? a percentage?)',
      `write "${value}%" or "${value}Mi"`,
    );
  }
  return value.trim() as EvictionThresholdValue;
}

import { Size, SizeRoundingBehavior } from 'cdk8s';
import { Cpu, k8s } from 'cdk8s-plus-27';

/**
 * Kubernetes quantity strings from typed sizes. Props take cdk8s `Size` and cdk8s-plus `Cpu`, so a
 * `storage: 20` (bytes? GiB?) or `memory: '1GB'` (10^9, not 2^30) cannot be written by mistake.
 */

const BINARY_UNITS: ReadonlyArray<[suffix: string, toUnit: (size: Size) => number]> = [
  ['Ti', (size) => size.toTebibytes({ rounding: SizeRoundingBehavior.NONE })],
  ['Gi', (size) => size.toGibibytes({ rounding: SizeRoundingBehavior.NONE })],
  ['Mi', (size) => size.toMebibytes({ rounding: SizeRoundingBehavior.NONE })],
  ['Ki', (size) => size.toKibibytes({ rounding: SizeRoundingBehavior.NONE })],
];

/** `Size.gibibytes(20)` -> `20Gi`: the largest binary unit that states the size exactly. */
export function sizeQuantityText(size: Size): string {
  for (const [suffix, toUnit] of BINARY_UNITS) {
    const amount = toUnit(size);
    if (Number.isInteger(amount) && amount > 0) return `${amount}${suffix}`;
  }
  return String(Math.ceil(size.toKibibytes({ rounding: SizeRoundingBehavior.NONE }) * 1024));
}

/** A size as the typed API's Quantity (it serializes as the plain string). */
export function sizeQuantity(size: Size): k8s.Quantity {
  return k8s.Quantity.fromString(sizeQuantityText(size));
}

/** A CPU amount as the typed API's Quantity. */
export function cpuQuantity(cpu: Cpu): k8s.Quantity {
  return k8s.Quantity.fromString(cpu.amount);
}

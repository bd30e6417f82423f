/**
 * Kubernetes resource quantities (`resource.Quantity`): `100Mi`, `1.5G`, `1e3`, as the kubelet reads
 * eviction thresholds and the PersistentVolume binder compares a claim's request with a volume's
 * capacity.
 */
const QUANTITY = /^([+-]?)(\d+\.?\d*|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;
const SUFFIX_FACTORS: Readonly<Record<string, number>> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/** A Kubernetes resource quantity (`100Mi`, `1.5G`, `1e3`) as a number, or undefined if malformed. */
export function parseQuantity(text: string): number | undefined {
  const match = QUANTITY.exec(text.trim());
  if (!match) return undefined;
  const magnitude = Number(match[2]);
  const suffix = match[3] ?? '';
  const factor = suffix === '' ? 1 : /^[eE]/.test(suffix) ? 10 ** Number(suffix.slice(1)) : SUFFIX_FACTORS[suffix];
  if (factor === undefined) return undefined;
  const value = magnitude * factor;
  return match[1] === '-' ? -value : value;
}

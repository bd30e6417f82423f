/**
 * Go `time.Duration` text, as `time.ParseDuration` reads it for the `--leader-elect-*` flags,
 * `metav1.Duration` config fields and the kubelet's eviction grace periods (`15s`, `1m30s`,
 * `500ms`, `1.5s`, `0`). Go accepts both micro signs, U+00B5 (µ) and U+03BC (μ). Written here rather than borrowed from a
 * library because the accepted grammar must be Go's exactly: `15` without a unit is rejected.
 */
const UNIT_MILLISECONDS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const GO_DURATION = /^[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/;
const GO_DURATION_PART = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;

/** Milliseconds of a Go duration string, or undefined when Go would refuse to parse it. */
export function parseGoDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '0' || trimmed === '+0' || trimmed === '-0') return 0;
  if (!GO_DURATION.test(trimmed)) return undefined;
  const sign = trimmed.startsWith('-') ? -1 : 1;
  let total = 0;
  for (const match of trimmed.matchAll(GO_DURATION_PART)) {
    total += Number(match[1]) * (UNIT_MILLISECONDS[match[2] ?? ''] ?? Number.NaN);
  }
  return sign * total;
}

/** A millisecond count as Go prints a duration for a flag: `15s`, `1500ms`, `2m0s` is written `120s`. */
export function formatGoDuration(milliseconds: number): string {
  if (milliseconds % 1000 === 0) return `${milliseconds / 1000}s`;
  return `${milliseconds}ms`;
}

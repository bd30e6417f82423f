/**
 * Finds the kubelet's `--eviction-*` flags in a command line and reads them the way the kubelet
 * does (pflag): `--flag=value` or `--flag value`; map flags are comma-separated `signal<value`
 * (`--eviction-hard`, `--eviction-soft`) or `signal=value` pairs.
 */

/** One word of a command line and the field path it came from. */
export interface CommandWord {
  readonly text: string;
  readonly path: string;
}

/** One `signal -> value` pair of a map setting, with where it was written. */
export interface EvictionMapEntry {
  readonly signal: string;
  readonly value: string;
  readonly path: string;
  /** True when the pair had no separator: the kubelet refuses it ("malformed pair"). */
  readonly malformed?: boolean;
}

/** The deprecated eviction flags and the KubeletConfiguration field each one sets. */
export const EVICTION_FLAG_FIELDS: Readonly<Record<string, string>> = {
  'eviction-hard': 'evictionHard',
  'eviction-soft': 'evictionSoft',
  'eviction-soft-grace-period': 'evictionSoftGracePeriod',
  'eviction-minimum-reclaim': 'evictionMinimumReclaim',
  'eviction-max-pod-grace-period': 'evictionMaxPodGracePeriod',
  'eviction-pressure-transition-period': 'evictionPressureTransitionPeriod',
};

const LANGLE_MAP_FLAGS = new Set(['eviction-hard', 'eviction-soft']);

export interface EvictionFlag {
  /** Flag name without dashes: `eviction-hard`. */
  readonly name: string;
  readonly value: string;
  /** Path of the word holding the value. */
  readonly path: string;
}

/** The words of a text that holds flags separated by whitespace (`--max-pods=110 --eviction-hard=...`), each at `path`. */
export function wordsOf(text: string, path: string): CommandWord[] {
  return text
    .split(/\s+/)
    .filter((word) => word !== '')
    .map((word) => ({ text: word, path }));
}

/** The `--eviction-*` flags among the words, in order. */
export function evictionFlags(words: readonly CommandWord[]): EvictionFlag[] {
  const flags: EvictionFlag[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    const match = word && /^--(eviction-[a-z-]+)(?:=(.*))?$/s.exec(word.text);
    const name = match?.[1];
    if (!word || !match || name === undefined) continue;
    const next = words[i + 1];
    if (match[2] !== undefined) {
      flags.push({ name, value: match[2], path: word.path });
    } else if (next) {
      flags.push({ name, value: next.text, path: next.path });
      i++;
    } else {
      flags.push({ name, value: '', path: word.path });
    }
  }
  return flags;
}

/** The pairs of a map flag's value. */
export function flagMapEntries(flag: EvictionFlag): EvictionMapEntry[] {
  const separator = LANGLE_MAP_FLAGS.has(flag.name) ? '<' : '=';
  return flag.value
    .split(',')
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '')
    .map((piece) => {
      const at = piece.indexOf(separator);
      if (at < 0) return { signal: piece, value: '', path: flag.path, malformed: true };
      return { signal: piece.slice(0, at).trim(), value: piece.slice(at + 1).trim(), path: flag.path };
    });
}

/** True for a word naming the kubelet binary (`kubelet`, `/usr/bin/kubelet`, `-/usr/bin/kubelet`). */
export function isKubeletBinary(word: string): boolean {
  const base =
    word
      .replace(/^[-@:+!]+/, '')
      .split('/')
      .pop() ?? '';
  return base === 'kubelet';
}

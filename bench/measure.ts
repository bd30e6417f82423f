import { performance } from 'perf_hooks';

/** Runs `task` `runs` times after one warm-up and returns the median of what it measured, in milliseconds. */
export function medianMs(runs: number, task: TimedTask): number {
  task();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(task());
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

export function formatMs(ms: number): string {
  return `${ms.toFixed(1)} ms`;
}

/** A task that measures itself: returns the milliseconds of the part that counts. */
export type TimedTask = () => number;

/** Times all of `task`. */
export function whole(task: () => void): TimedTask {
  return () => {
    const start = performance.now();
    task();
    return performance.now() - start;
  };
}

/** Runs `setup` untimed, then times `task` on what it built. */
export function after<T>(setup: () => T, task: (subject: T) => void): TimedTask {
  return () => {
    const subject = setup();
    const start = performance.now();
    task(subject);
    return performance.now() - start;
  };
}

/** Medians of two tasks timed in alternation, with the median of their per-pair ratio and difference. */
export interface PairedTiming {
  readonly first: number;
  readonly second: number;
  /** Median of second/first over the pairs. */
  readonly ratio: number;
  /** Median of second-first over the pairs, in milliseconds. */
  readonly difference: number;
}

/**
 * Times `first` and `second` alternately, `runs` pairs after one warm-up pair. On a shared machine
 * the speed drifts from one second to the next; comparing within each pair cancels the drift that
 * separate medians taken apart would keep.
 */
export function pairedMs(runs: number, first: TimedTask, second: TimedTask): PairedTiming {
  first();
  second();
  const pairs: Array<{ first: number; second: number }> = [];
  for (let i = 0; i < runs; i++) pairs.push({ first: first(), second: second() });
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  return {
    first: median(pairs.map((p) => p.first)),
    second: median(pairs.map((p) => p.second)),
    ratio: median(pairs.map((p) => p.second / p.first)),
    difference: median(pairs.map((p) => p.second - p.first)),
  };
}

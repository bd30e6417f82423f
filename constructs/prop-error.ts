import { IConstruct } from 'constructs';
import { valueExcerpt } from '../validators/value-excerpt';

/** One invalid prop: where it is, what was given, what is wrong and how to fix it (a Kubernetes field error). */
export interface PropProblem {
  /** The prop path, e.g. `container.ports[1].name`. */
  readonly prop: string;
  /** The value given (rendered bounded in messages). */
  readonly value: unknown;
  /** What is wrong with it. */
  readonly problem: string;
  /** What to write instead. */
  readonly fix: string;
}

const USER_ERROR = Symbol.for('ballast.userError');

/**
 * Thrown when a construct is given prop values that would only fail later, in the cluster. It lists
 * every problem found in the props at once, each with its prop path, value and fix, like the API
 * server's field errors. It is a user's mistake, not a bug: `synthOrExit` prints it without a stack
 * trace (see {@link isBallastUserError}).
 */
export class BallastPropError extends Error {
  /** Every problem, in the order found. */
  public readonly problems: readonly PropProblem[];
  /** The first problem's prop (kept for callers that handle one prop). */
  public readonly prop: string;
  /** The first problem's value. */
  public readonly value: unknown;

  /** Several problems at once; use {@link PropProblems} to collect them. */
  public static of(scope: IConstruct | string, problems: readonly PropProblem[]): BallastPropError {
    const [first, ...rest] = problems;
    if (!first) throw new Error('BallastPropError.of needs at least one problem');
    const error = new BallastPropError(scope, first.prop, first.value, first.problem, first.fix);
    if (rest.length === 0) return error;
    return new BallastPropError(scope, first.prop, first.value, first.problem, first.fix, problems);
  }

  constructor(
    scope: IConstruct | string,
    prop: string,
    value: unknown,
    problem: string,
    fix: string,
    problems: readonly PropProblem[] = [{ prop, value, problem, fix }],
  ) {
    const where = typeof scope === 'string' ? scope : scope.node.path || '<app>';
    super(
      problems.length === 1
        ? `${where}: ${describeProblem(problems[0] ?? { prop, value, problem, fix })}`
        : `${where}: ${problems.length} invalid props:\n${problems.map((p) => `  - ${describeProblem(p)}`).join('\n')}`,
    );
    this.name = 'BallastPropError';
    this.prop = prop;
    this.value = value;
    this.problems = problems;
    Object.defineProperty(this, USER_ERROR, { value: true });
  }
}

/**
 * Collects the problems of a construct's props so they are all reported together:
 *
 * ```ts
 * const problems = new PropProblems();
 * if (!ok(props.a)) problems.add('a', props.a, 'why', 'fix');
 * problems.throwIfAny(this);
 * ```
 */
export class PropProblems {
  private readonly list: PropProblem[] = [];

  /** Records a problem. */
  public add(prop: string, value: unknown, problem: string, fix: string): void {
    this.list.push({ prop, value, problem, fix });
  }

  /** Records the problems of a BallastPropError thrown by a helper (nested props get `prefix.`). */
  public addFrom(error: unknown, prefix = ''): void {
    if (!(error instanceof BallastPropError)) throw error;
    for (const p of error.problems)
      this.list.push({ ...p, prop: prefix && !p.prop.startsWith(prefix) ? `${prefix}.${p.prop}` : p.prop });
  }

  /** Runs `check`, recording a BallastPropError it throws instead of stopping. */
  public collect<T>(check: () => T, prefix = ''): T | undefined {
    try {
      return check();
    } catch (error) {
      this.addFrom(error, prefix);
      return undefined;
    }
  }

  public get size(): number {
    return this.list.length;
  }

  /** Throws one BallastPropError listing every problem recorded, if any. */
  public throwIfAny(scope: IConstruct | string): void {
    if (this.list.length > 0) throw BallastPropError.of(scope, this.list);
  }
}

/**
 * True for errors that describe a user's mistake (invalid props, a refused synth), which are
 * printed as they are, without a stack trace. Works across copies of the ballast package.
 */
export function isBallastUserError(error: unknown): error is Error {
  return error instanceof Error && USER_ERROR in error;
}

function describeProblem(p: PropProblem): string {
  return `invalid ${p.prop} ${describeValue(p.value)}: ${p.problem}. Fix: ${p.fix}`;
}

function describeValue(value: unknown): string {
  if (value === undefined) return '(not set)';
  return valueExcerpt(value, 80);
}

/** Marks an error as a user's mistake, printed without a stack trace by `synthOrExit`. */
export function markUserError<T extends Error>(error: T): T {
  Object.defineProperty(error, USER_ERROR, { value: true });
  return error;
}

import { IConstruct } from 'constructs';

/**
 * Thrown when a construct is given a prop value that would only fail later, in the cluster.
 * The message names the construct, the prop, the value and the fix.
 */
export class BallastPropError extends Error {
  constructor(
    scope: IConstruct | string,
    public readonly prop: string,
    public readonly value: unknown,
    problem: string,
    fix: string,
  ) {
    const where = typeof scope === 'string' ? scope : scope.node.path || '<app>';
    super(`${where}: invalid ${prop} ${describeValue(value)}: ${problem}. Fix: ${fix}`);
    this.name = 'BallastPropError';
  }
}

function describeValue(value: unknown): string {
  if (value === undefined) return '(not set)';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

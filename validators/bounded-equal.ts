/**
 * Deep equality of two parsed documents that stops after `budget` nodes: YAML aliases can make a
 * small document stand for billions of nodes, so comparing without a bound could run for hours.
 * Values shared by reference (an alias) are equal at once.
 */
export function boundedEqual(a: unknown, b: unknown, budget = 100_000): boolean | 'too large' {
  const state = { left: budget };
  const result = equal(a, b, state);
  return state.left < 0 ? 'too large' : result;
}

function equal(a: unknown, b: unknown, state: { left: number }): boolean {
  if (a === b) return true;
  if (--state.left < 0) return false;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  for (const key of aKeys) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (!equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], state)) return false;
  }
  return true;
}

/**
 * A short, bounded rendering of a value taken from user input, for finding messages.
 *
 * Rules must never `JSON.stringify` input values: YAML aliases let a 600-byte file stand for a
 * value of billions of nodes, and serializing it takes minutes and gigabytes. This walks at most
 * `maxNodes` nodes and stops at `maxLength` characters, whatever the value's expanded size, and
 * never follows a cycle.
 */
export function valueExcerpt(value: unknown, maxLength = 60, maxNodes = 40): string {
  const budget = { nodes: maxNodes, length: maxLength + 1 };
  const text = render(value, budget, new Set());
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

interface Budget {
  nodes: number;
  length: number;
}

function render(value: unknown, budget: Budget, seen: Set<unknown>): string {
  budget.nodes -= 1;
  if (budget.nodes < 0 || budget.length <= 0) return '…';
  if (typeof value === 'string') return quoteBounded(value, budget);
  if (value === null || typeof value !== 'object') return spend(String(value), budget);
  if (seen.has(value)) return '…';
  seen.add(value);
  const isArray = Array.isArray(value);
  const parts: string[] = [];
  const entries: Iterable<[string, unknown]> = isArray
    ? (value as unknown[]).map((item, i) => [String(i), item])
    : Object.entries(value);
  let used = 1;
  for (const [key, item] of entries) {
    if (budget.nodes <= 0 || budget.length - used <= 0) {
      parts.push('…');
      break;
    }
    const rendered = isArray
      ? render(item, budget, seen)
      : `${quoteBounded(key, budget)}: ${render(item, budget, seen)}`;
    parts.push(rendered);
    used += rendered.length + 2;
  }
  seen.delete(value);
  return isArray ? `[${parts.join(', ')}]` : `{${parts.join(', ')}}`;
}

function quoteBounded(text: string, budget: Budget): string {
  const shown = text.length > budget.length ? `${text.slice(0, Math.max(budget.length, 1))}…` : text;
  return spend(JSON.stringify(shown), budget);
}

function spend(text: string, budget: Budget): string {
  budget.length -= text.length;
  return text;
}

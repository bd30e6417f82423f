import { asArray, asRecord, asString, asStringList } from './json';

/**
 * Whether `labels` satisfy a Kubernetes label selector (`matchLabels` and `matchExpressions` with
 * In, NotIn, Exists, DoesNotExist), as apimachinery's LabelSelectorAsSelector evaluates it: every
 * requirement must hold, and an empty selector matches everything. Undefined when the selector
 * cannot be read (an unknown operator, a value that is not a string): then nobody can say.
 */
export function matchesLabelSelector(labels: unknown, selector: unknown): boolean | undefined {
  const given = asRecord(labels) ?? {};
  const record = asRecord(selector);
  if (!record) return undefined;
  for (const [key, value] of Object.entries(asRecord(record.matchLabels) ?? {})) {
    if (typeof value !== 'string') return undefined;
    if (given[key] !== value) return false;
  }
  for (const expression of asArray(record.matchExpressions)) {
    const key = asString(asRecord(expression)?.key);
    if (key === undefined) return undefined;
    const values = asStringList(asRecord(expression)?.values);
    const value = given[key];
    switch (asString(asRecord(expression)?.operator)) {
      case 'In':
        if (typeof value !== 'string' || !values.includes(value)) return false;
        break;
      case 'NotIn':
        if (typeof value === 'string' && values.includes(value)) return false;
        break;
      case 'Exists':
        if (value === undefined) return false;
        break;
      case 'DoesNotExist':
        if (value !== undefined) return false;
        break;
      default:
        return undefined;
    }
  }
  return true;
}

import { matchesLabelSelector } from '../../validators/label-selector';

const labels = { app: 'db', tier: 'data' };

describe('matchesLabelSelector, as apimachinery evaluates a label selector', () => {
  test.each([
    [{}, true],
    [{ matchLabels: { app: 'db' } }, true],
    [{ matchLabels: { app: 'web' } }, false],
    [{ matchExpressions: [{ key: 'tier', operator: 'In', values: ['data', 'cache'] }] }, true],
    [{ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['data'] }] }, false],
    [{ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, true],
    [{ matchExpressions: [{ key: 'app', operator: 'Exists' }] }, true],
    [{ matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] }, false],
    [{ matchLabels: { app: 'db' }, matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, false],
  ])('%j -> %s', (selector, expected) => {
    expect(matchesLabelSelector(labels, selector)).toBe(expected);
  });

  test('a selector it cannot read is undefined, not a match or a miss', () => {
    expect(matchesLabelSelector(labels, { matchExpressions: [{ key: 'app', operator: 'Gt', values: ['1'] }] })).toBe(
      undefined,
    );
    expect(matchesLabelSelector(labels, { matchLabels: { app: 5 } })).toBe(undefined);
    expect(matchesLabelSelector(labels, 'app=db')).toBe(undefined);
  });
});

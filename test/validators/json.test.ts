import { asKeptStringList, asStringList } from '../../validators/json';

describe('asKeptStringList', () => {
  it('keeps a list of strings as it is, without a copy', () => {
    const verbs = ['get', 'update'];
    expect(asKeptStringList(verbs)).toBe(verbs);
  });

  it('reads other shapes as asStringList does: a lone string, non-strings left out, nothing', () => {
    expect(asKeptStringList('update')).toEqual(['update']);
    expect(asKeptStringList(['get', 7, null, 'update'])).toEqual(asStringList(['get', 7, null, 'update']));
    expect(asKeptStringList(undefined)).toEqual([]);
    expect(asKeptStringList({ verbs: 'get' })).toEqual([]);
  });
});

import * as jsYaml from 'js-yaml';
import { LEADER_ELECTION_RULES } from '../../../../validators/rules/leader-election';
import { ruleHits } from '../../../support/findings';

// `ballast explain` shows these examples: the bad one must trip its rule and the good one must not.
describe.each(LEADER_ELECTION_RULES.map((rule) => [rule.id, rule] as const))('%s examples', (id, rule) => {
  test('the bad example is reported and the good one is not', () => {
    expect(ruleHits(jsYaml.loadAll(rule.example!.bad), id).length).toBeGreaterThan(0);
    expect(ruleHits(jsYaml.loadAll(rule.example!.good), id)).toEqual([]);
  });
});

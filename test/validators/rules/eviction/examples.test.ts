import * as jsYaml from 'js-yaml';
import { isSystemdUnitText, parseSystemdDropIn } from '../../../../validators';
import { EVICTION_RULES } from '../../../../validators/rules/eviction';
import { ruleHits } from '../../../support/findings';

/** An example is a systemd drop-in (its file name in a leading comment, if any) or YAML. */
function exampleObject(text: string): unknown {
  if (!isSystemdUnitText(text)) return { metadata: { name: 'example' }, ...(jsYaml.load(text) as object) };
  const name = /^#\s*(\S+\.conf)/.exec(text)?.[1] ?? '20-example.conf';
  return parseSystemdDropIn(text, `/etc/systemd/system/kubelet.service.d/${name}`);
}

describe.each(EVICTION_RULES.map((rule) => [rule.id, rule] as const))('%s example', (id, rule) => {
  const options = { kubernetesVersion: '1.27' };
  test('the bad example is reported', () => {
    expect(ruleHits([exampleObject(rule.example!.bad)], id, options).length).toBeGreaterThan(0);
  });
  test('the good example is not', () => {
    expect(ruleHits([exampleObject(rule.example!.good)], id, options)).toEqual([]);
  });
});

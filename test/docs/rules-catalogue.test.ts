import * as fs from 'fs';
import { renderCatalogue, renderRuleEntry } from '../../cli/rule-catalogue';
import { run } from '../../cli/program';
import { RULES_DOC } from '../../docs/generate-rules';
import { ALL_RULES, Rule, hasMachineFix, noMachineFixReason } from '../../validators';

describe('rule catalogue (docs/rules.md)', () => {
  test('docs/rules.md is current with the rule data', () => {
    const committed = fs.existsSync(RULES_DOC) ? fs.readFileSync(RULES_DOC, 'utf8') : '';
    if (committed !== renderCatalogue(ALL_RULES)) {
      throw new Error('docs/rules.md is stale: run `npm run docs` and commit the result');
    }
  });

  test('every rule has an entry with id, severity, versions, why, examples, fix and suppression', () => {
    const catalogue = renderCatalogue(ALL_RULES);
    for (const rule of ALL_RULES) {
      expect(catalogue).toContain(`| [${rule.id}](#${rule.id}) | ${rule.severity}${rule.optIn ? ', opt-in' : ''} |`);
      const entry = renderRuleEntry(rule);
      expect(catalogue).toContain(entry);
      expect(entry).toContain(`- Severity: ${rule.severity}`);
      expect(entry).toContain(rule.why);
      expect(entry).toContain(rule.fix);
      if (rule.example) expect(entry).toContain(rule.example.bad.trimEnd());
      expect(entry).toContain(`ballast.dev/suppress.${rule.id}: "<why this object is an exception>"`);
    }
  });

  test('every rule either has a machine fix or says why it has none, in its entry', () => {
    for (const rule of ALL_RULES) {
      if (hasMachineFix(rule.id)) continue;
      expect([rule.id, noMachineFixReason(rule.id)]).not.toEqual([rule.id, 'the change needs a person']);
      expect(renderRuleEntry(rule)).toContain(`\`ballast fix\` leaves it to you: ${noMachineFixReason(rule.id)}`);
    }
  });

  test("`ballast explain RULE` prints exactly the rule's entry of the catalogue", async () => {
    for (const rule of ALL_RULES) {
      let stdout = '';
      const code = await run(['explain', rule.id], {
        out: (t) => {
          stdout += t;
        },
        err: () => undefined,
      });
      expect(code).toBe(0);
      expect(stdout).toBe(renderRuleEntry(rule));
    }
  });

  test('versions are written as the range the rule applies to', () => {
    const base: Rule = {
      id: 'x',
      severity: 'warning',
      scope: ['ConfigMap'],
      summary: 's',
      why: 'w',
      fix: 'f',
      check: () => undefined,
    };
    expect(renderRuleEntry(base)).toContain('- Kubernetes versions: all\n- Looks at: ConfigMap\n');
    expect(renderRuleEntry({ ...base, kubernetesVersions: { from: '1.29' } })).toContain(
      '- Kubernetes versions: 1.29 and later',
    );
    expect(renderRuleEntry({ ...base, kubernetesVersions: { before: '1.31' } })).toContain(
      '- Kubernetes versions: before 1.31',
    );
    expect(renderRuleEntry({ ...base, kubernetesVersions: { from: '1.27', before: '1.31' } })).toContain(
      '- Kubernetes versions: 1.27 to before 1.31',
    );
    expect(renderRuleEntry(base)).not.toContain('Bad:');
  });

  test('a summary with a pipe does not break the index table', () => {
    const rule: Rule = {
      id: 'x',
      severity: 'error',
      scope: ['*'],
      summary: 'a | b',
      why: 'w',
      fix: 'f',
      check: () => undefined,
    };
    expect(renderCatalogue([rule])).toContain('| [x](#x) | error | a \\| b |');
  });
});

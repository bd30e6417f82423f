import { ALL_RULES, findRule } from '../validators';
import { renderRuleEntry } from './rule-catalogue';

/** `ballast rules`: one line a rule; opt-in rules are marked `*` and explained below the list. */
export function listRules(): string {
  const width = Math.max(...ALL_RULES.map((rule) => rule.id.length));
  const lines = ALL_RULES.map(
    (rule) =>
      `${rule.id.padEnd(width)}  ${(rule.optIn ? `${rule.severity}*` : rule.severity).padEnd(8)}  ${rule.summary}`,
  );
  const optIn = ALL_RULES.some((rule) => rule.optIn);
  return (
    [
      ...lines,
      ...(optIn ? ['', '* opt-in: runs only when switched on, e.g. `rules: {RULE: on}` in .ballast.yaml'] : []),
    ].join('\n') + '\n'
  );
}

/** `ballast explain RULE`: the rule's entry of docs/rules.md, or undefined for an unknown id. */
export function explainRule(ruleId: string): string | undefined {
  const rule = findRule(ruleId);
  return rule ? renderRuleEntry(rule) : undefined;
}

import { ALL_RULES, findRule } from '../validators';
import { renderRuleEntry } from './rule-catalogue';

/** `ballast rules`: one line a rule. */
export function listRules(): string {
  const width = Math.max(...ALL_RULES.map((rule) => rule.id.length));
  return (
    ALL_RULES.map((rule) => `${rule.id.padEnd(width)}  ${rule.severity.padEnd(7)}  ${rule.summary}`).join('\n') + '\n'
  );
}

/** `ballast explain RULE`: the rule's entry of docs/rules.md, or undefined for an unknown id. */
export function explainRule(ruleId: string): string | undefined {
  const rule = findRule(ruleId);
  return rule ? renderRuleEntry(rule) : undefined;
}

import { ALL_RULES, Rule, findRule, suppressionAnnotation } from '../validators';

/** `ballast rules`: one line a rule. */
export function listRules(): string {
  const width = Math.max(...ALL_RULES.map((rule) => rule.id.length));
  return ALL_RULES.map((rule) => `${rule.id.padEnd(width)}  ${rule.severity.padEnd(7)}  ${rule.summary}`).join('\n') + '\n';
}

/** `ballast explain RULE`: the rule's catalogue entry as text, or undefined for an unknown id. */
export function explainRule(ruleId: string): string | undefined {
  const rule = findRule(ruleId);
  return rule ? formatExplanation(rule) : undefined;
}

function formatExplanation(rule: Rule): string {
  const lines = [
    `${rule.id} (${rule.severity}${versionsText(rule)})`,
    '',
    rule.summary,
    '',
    'Why:',
    `  ${rule.why}`,
    '',
    'Fix:',
    `  ${rule.fix}`,
  ];
  if (rule.example) {
    lines.push('', 'Bad:', indent(rule.example.bad), '', 'Good:', indent(rule.example.good));
  }
  lines.push(
    '',
    'Suppress (per object, with the reason as the value):',
    '  metadata:',
    '    annotations:',
    `      ${suppressionAnnotation(rule.id)}: "<why this object is an exception>"`,
  );
  return lines.join('\n') + '\n';
}

function versionsText(rule: Rule): string {
  const range = rule.kubernetesVersions;
  if (!range) return ', all Kubernetes versions';
  if (range.from && range.before) return `, Kubernetes ${range.from} to before ${range.before}`;
  if (range.from) return `, Kubernetes ${range.from} and later`;
  return `, Kubernetes before ${range.before}`;
}

function indent(text: string): string {
  return text.split('\n').map((line) => `    ${line}`).join('\n');
}

import { Rule, hasMachineFix, noMachineFixReason, ruleParameters, suppressionAnnotation } from '../validators';

/**
 * One rule's catalogue entry. `ballast explain RULE` prints exactly this and docs/rules.md is made
 * of these, so the terminal and the docs can never disagree. It is markdown written to read as
 * plain text too: a heading, a list, paragraphs and fenced YAML.
 */
export function renderRuleEntry(rule: Rule): string {
  const lines = [
    `## ${rule.id}`,
    '',
    rule.summary,
    '',
    `- Severity: ${rule.severity}${rule.optIn ? ' (opt-in: runs only with `rules: {' + rule.id + ': on}`)' : ''}`,
    `- Kubernetes versions: ${versionsText(rule)}`,
    `- Looks at: ${rule.scope.join(', ')}`,
    ...(rule.judgesPatches === true
      ? ['- Also judges kustomize patch files: the values it checks are set whole by a patch']
      : []),
    hasMachineFix(rule.id)
      ? '- `ballast fix` applies the fix where it is safe (`--dry-run` shows the diff first)'
      : `- \`ballast fix\` leaves it to you: ${noMachineFixReason(rule.id)}`,
    '',
    'Why:',
    '',
    rule.why,
    '',
    'Fix:',
    '',
    rule.fix,
  ];
  const parameters = ruleParameters(rule.id);
  if (parameters.length > 0) {
    lines.push(
      '',
      `Parameters (in \`.ballast.yaml\` or the door's options, under \`parameters: {${rule.id}: {...}}\`):`,
      '',
      ...parameters.map(
        (parameter) =>
          `- \`${parameter.name}\` (default \`${JSON.stringify(parameter.default)}\`): ${parameter.description}.`,
      ),
    );
  }
  if (rule.example) {
    lines.push('', 'Bad:', '', ...yamlBlock(rule.example.bad), '', 'Good:', '', ...yamlBlock(rule.example.good));
  }
  lines.push(
    '',
    'Suppress (per object, with the reason as the value; an empty value does not suppress):',
    '',
    ...yamlBlock(
      [
        'metadata:',
        '  annotations:',
        `    ${suppressionAnnotation(rule.id)}: "<why this object is an exception>"`,
      ].join('\n'),
    ),
  );
  return lines.join('\n') + '\n';
}

/** docs/rules.md: an index table, then every rule's entry in catalogue order. */
export function renderCatalogue(rules: readonly Rule[]): string {
  const lines = [
    '# ballast rules',
    '',
    '<!-- Generated from the rule data by `npm run docs` (docs/generate-rules.ts): do not edit by hand. -->',
    '',
    'Every rule runs in each door: the synth gate (`BallastGate`), the cdk8s-cli validation plugin, ' +
      'the Pulumi policy pack and `ballast lint`. An unsuppressed **error** fails the run; a **warning** ' +
      'is reported only. `ballast explain RULE` prints the entry of one rule.',
    '',
    '| Rule | Severity | What it finds |',
    '| --- | --- | --- |',
    ...rules.map(
      (rule) =>
        `| [${rule.id}](#${rule.id}) | ${rule.severity}${rule.optIn ? ', opt-in' : ''} | ${escapeCell(rule.summary)} |`,
    ),
    '',
  ];
  return [lines.join('\n'), ...rules.map(renderRuleEntry), LOADER_ENTRY].join('\n');
}

/** The finding `ballast lint` itself reports for input it cannot read (not a rule: it cannot be switched off). */
const LOADER_ENTRY = [
  '## yaml-syntax-error',
  '',
  'A file given to `ballast lint` is not valid YAML or JSON, is binary, or cannot be read, so its objects cannot be checked.',
  '',
  '- Severity: error (reported by the loader, not a rule: it cannot be switched off or suppressed)',
  '',
  'The other documents of a file with one broken document are still checked. In a directory walk, Helm ' +
    'charts and unparseable templates (`{{ }}`, ytt `#@ if` branches, `${VARIABLE}` and `@VARIABLE@` ' +
    'placeholders) are skipped and counted instead; a template named on the ' +
    'command line is reported with the hint to lint its rendered output (`helm template ./chart | ballast lint -`).',
  '',
  'A key a mapping writes twice (kubectl refuses it since 1.21) is reported once per key, at its last ' +
    'writing, and the document is checked as older kubectl applied it, the last writing winning. ' +
    '`ballast fix` removes the earlier writings, unless one holds a comment. Where kind repeats at the top of ' +
    'a document, objects run together for want of `---` lines: `ballast fix` writes a line where each after ' +
    'the first begins, unless their keys interleave.',
  '',
].join('\n');

function versionsText(rule: Rule): string {
  const range = rule.kubernetesVersions;
  if (!range || (!range.from && !range.before)) return 'all';
  if (range.from && range.before) return `${range.from} to before ${range.before}`;
  if (range.from) return `${range.from} and later`;
  return `before ${range.before}`;
}

function yamlBlock(text: string): string[] {
  return ['```yaml', ...text.trimEnd().split('\n'), '```'];
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

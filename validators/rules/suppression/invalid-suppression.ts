import { valueExcerpt } from '../../value-excerpt';
import { fieldPath } from '../../field-path';
import { getRecord } from '../../json';
import { Rule } from '../../rule';
import { SUPPRESSION_ANNOTATION_PREFIX } from '../../suppression';

export const invalidSuppression: Rule = {
  id: 'invalid-suppression',
  severity: 'warning',
  scope: ['*'],
  summary: 'A ballast suppression annotation has no justification or names no known rule.',
  why:
    'A suppression is a decision someone must be able to review later: its value is the reason. ' +
    'An empty value or a misspelt rule id suppresses nothing, so the author believes a finding is ' +
    'handled when it is not.',
  fix:
    `Write the reason as the annotation's value, and the exact rule id after "${SUPPRESSION_ANNOTATION_PREFIX}" ` +
    '(`ballast rules` lists them).',
  example: {
    bad: [
      'apiVersion: v1',
      'kind: PersistentVolume',
      'metadata:',
      '  name: data',
      '  annotations:',
      `    ${SUPPRESSION_ANNOTATION_PREFIX}recycle-reclaim-policy: ""`,
    ].join('\n'),
    good: [
      'apiVersion: v1',
      'kind: PersistentVolume',
      'metadata:',
      '  name: data',
      '  annotations:',
      `    ${SUPPRESSION_ANNOTATION_PREFIX}recycle-reclaim-policy: "scratch NFS share, wiped nightly (OPS-12)"`,
    ].join('\n'),
  },
  check(context) {
    for (const object of context.index.objects) {
      // The raw annotations, not `object.annotations`: that view keeps string values only, and
      // `ballast.dev/suppress.x:` with nothing after the colon is YAML null, the commonest empty justification.
      for (const [annotation, value] of Object.entries(getRecord(object.raw, 'metadata', 'annotations') ?? {})) {
        if (!annotation.startsWith(SUPPRESSION_ANNOTATION_PREFIX)) continue;
        const ruleId = annotation.slice(SUPPRESSION_ANNOTATION_PREFIX.length);
        const path = fieldPath('metadata', 'annotations', annotation);
        if (!context.knownRuleIds.has(ruleId)) {
          context.report(object, {
            path,
            message: `suppression names unknown rule "${ruleId}": it suppresses nothing.`,
          });
        } else if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) {
          context.report(object, {
            path,
            message: `suppression of ${ruleId} has an empty justification, so it does not suppress anything.`,
          });
        } else if (typeof value !== 'string') {
          context.report(object, {
            path,
            message:
              `suppression of ${ruleId} has the value ${typeof value === 'object' ? (Array.isArray(value) ? 'a list' : 'a mapping') : valueExcerpt(value)}, not a text: annotation values ` +
              'must be strings, so it does not suppress anything. Write the reason in quotes.',
          });
        }
      }
    }
  },
};

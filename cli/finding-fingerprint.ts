import { createHash } from 'crypto';
import { apiGroupOf } from '../validators/cluster-scoped-kinds';
import type { LintFinding } from './lint-result';

/**
 * A finding's identity across runs: rule, object (API group, kind, namespace, name) and field
 * path, never the line or the message, so editing a file above a finding or rewording a rule keeps
 * it. Loader findings (no object) are keyed by file instead. Used by the suppressions file and as
 * SARIF `partialFingerprints`.
 */
export function findingFingerprint(finding: Pick<LintFinding, 'rule' | 'object' | 'path' | 'file'>): string {
  const { apiVersion, kind, namespace, name } = finding.object;
  const group = apiGroupOf(apiVersion ?? '');
  const identity =
    kind === null && name === null ? [`file:${finding.file ?? ''}`] : [group, kind ?? '', namespace ?? '', name ?? ''];
  return createHash('sha256')
    .update([finding.rule, ...identity, finding.path].join('\u0000'))
    .digest('hex')
    .slice(0, 32);
}

import { LintFinding, LintResult } from '../lint-result';

/**
 * `--format json`: exactly one JSON object, `{"findings": [...], "summary": {...}, "target": {...}}`, with every
 * key present (null when unknown) so scripts never test for missing keys. Only findings and
 * summary are serialized, never the objects: a YAML alias bomb is a graph of shared references
 * that JSON.stringify would expand exponentially.
 */
export function formatJson(result: LintResult): string {
  return (
    JSON.stringify({ findings: result.findings.map(toJson), summary: result.summary, target: result.target }, null, 2) +
    '\n'
  );
}

function toJson(finding: LintFinding) {
  return {
    rule: finding.rule,
    severity: finding.severity,
    message: finding.message,
    fix: finding.fix,
    file: finding.file,
    line: finding.line,
    object: {
      apiVersion: finding.object.apiVersion,
      kind: finding.object.kind,
      namespace: finding.object.namespace,
      name: finding.object.name,
    },
    path: finding.path,
    suppressed: finding.suppressed,
    baselined: finding.baselined,
    fingerprint: finding.fingerprint,
    edits: finding.edits,
    ...(finding.precondition !== undefined ? { precondition: finding.precondition } : {}),
  };
}

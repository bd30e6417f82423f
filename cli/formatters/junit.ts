import { LintFinding, LintResult, LintedObject, describeRef } from '../lint-result';

/**
 * JUnit XML for CI test reports: one test suite per file, one test case per object. An object
 * fails when it has an unsuppressed error; its warnings are listed in `system-out`. A file that
 * cannot be parsed is one failing test case of its own.
 */
export function formatJunit(result: LintResult): string {
  const byFile = new Map<string, { objects: LintedObject[]; findings: LintFinding[] }>();
  for (const file of result.files) byFile.set(file, { objects: [], findings: [] });
  const entry = (file: string) => {
    let found = byFile.get(file);
    if (!found) byFile.set(file, (found = { objects: [], findings: [] }));
    return found;
  };
  for (const object of result.objects()) entry(object.file).objects.push(object);
  for (const finding of result.findings) entry(finding.file ?? '<no file>').findings.push(finding);

  // JUnit has properties per test suite only: every suite carries the target version.
  const properties =
    `    <properties>\n      <property name="kubernetesVersion" value="${xml(result.target.kubernetesVersion)}"/>\n` +
    `      <property name="kubernetesVersionSource" value="${xml(result.target.source)}"/>\n    </properties>\n`;
  const suites: string[] = [];
  let totalTests = 0;
  let totalFailures = 0;
  for (const [file, { objects, findings }] of byFile) {
    const cases: string[] = [];
    let failures = 0;
    const loaderFindings = findings.filter(
      (f) => f.object.kind === null && f.object.name === null && f.object.apiVersion === null,
    );
    if (loaderFindings.length > 0) {
      failures++;
      cases.push(testCase(file, '(file)', loaderFindings));
    }
    // Objects are matched to findings by identity fields: the same Kind/namespace/name twice in
    // one file is an error of its own and shares its findings.
    for (const object of objects) {
      const own = findings.filter((f) => !loaderFindings.includes(f) && sameObject(f, object));
      if (own.some(isFailure)) failures++;
      cases.push(testCase(file, describeRef(object.object), own));
    }
    totalTests += cases.length;
    totalFailures += failures;
    suites.push(
      `  <testsuite name="${xml(file)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">\n${properties}${cases.join('\n')}${cases.length ? '\n' : ''}  </testsuite>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="ballast lint" tests="${totalTests}" failures="${totalFailures}" errors="0">\n${suites.join('\n')}${suites.length ? '\n' : ''}</testsuites>\n`;
}

function isFailure(finding: LintFinding): boolean {
  return !finding.suppressed && finding.severity === 'error';
}

function sameObject(finding: LintFinding, object: LintedObject): boolean {
  const a = finding.object;
  const b = object.object;
  return a.kind === b.kind && a.name === b.name && a.namespace === b.namespace && a.apiVersion === b.apiVersion;
}

function testCase(file: string, name: string, findings: readonly LintFinding[]): string {
  const open = `    <testcase classname="${xml(file)}" name="${xml(name)}"`;
  const failures = findings.filter(isFailure);
  const others = findings.filter((f) => !isFailure(f));
  if (findings.length === 0) return `${open}/>`;
  const parts: string[] = [];
  if (failures.length > 0) {
    const [first] = failures;
    const message =
      failures.length === 1 && first
        ? first.message
        : `${failures.length} errors: ${failures.map((f) => f.rule).join(', ')}`;
    parts.push(
      `      <failure message="${xml(message)}" type="${xml(first?.rule ?? '')}">${xml(failures.map(describe).join('\n\n'))}</failure>`,
    );
  }
  if (others.length > 0) parts.push(`      <system-out>${xml(others.map(describe).join('\n\n'))}</system-out>`);
  return `${open}>\n${parts.join('\n')}\n    </testcase>`;
}

function describe(finding: LintFinding): string {
  const state = finding.suppressed ? `suppressed ${finding.severity}` : finding.severity;
  return `${state} ${finding.rule} at ${finding.file ?? '<no file>'}:${finding.line ?? '-'} ${finding.path}\n${finding.message}\nfix: ${finding.fix}`;
}

/** XML-escapes text and drops characters XML 1.0 cannot hold (binary garbage in messages). */
function xml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

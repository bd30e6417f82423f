import { targetDescription, terminalSafe } from '../../validators';
import { FormatOptions, LintFinding, LintResult, SkippedCounts, describeRef } from '../lint-result';

const STYLES = { red: '\u001b[31m', yellow: '\u001b[33m', dim: '\u001b[2m', bold: '\u001b[1m', reset: '\u001b[0m' };

/**
 * Human output, grouped by file (eslint style):
 *
 *     deploy/app.yaml
 *       12  error    Deployment db/web  spec.template.spec.volumes[0]  The claim ...  rwo-claim-in-rolling-deployment
 *           fix: ...
 */
export function formatText(result: LintResult, options: FormatOptions): string {
  const paint = (style: keyof typeof STYLES, text: string) =>
    options.colour ? `${STYLES[style]}${text}${STYLES.reset}` : text;
  const out: string[] = [];
  if (result.target.upgradeFrom !== undefined) {
    out.push(
      paint(
        'bold',
        `Upgrade check, Kubernetes ${result.target.upgradeFrom} -> ${result.target.kubernetesVersion}: what becomes an error on upgrade`,
      ),
      '',
    );
  }
  let currentFile: string | null | undefined;
  for (const finding of result.findings) {
    if (finding.file !== currentFile) {
      if (currentFile !== undefined) out.push('');
      currentFile = finding.file;
      out.push(paint('bold', terminalSafe(finding.file ?? '<no file>')));
    }
    out.push(formatFinding(finding, paint));
  }
  if (result.findings.length > 0) out.push('');
  const { files, objects, errors, warnings, suppressed, baselined } = result.summary;
  const counts =
    `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}, ${suppressed} suppressed` +
    (result.baselineFile !== undefined
      ? `, ${baselined} baselined in ${terminalSafe(result.baselineFile)} remaining`
      : '');
  const line =
    `${files} file${files === 1 ? '' : 's'}, ${objects} object${objects === 1 ? '' : 's'}: ${counts}` +
    ` (target ${targetDescription(result.target.kubernetesVersion, result.target.source, result.target.declaredBy)})`;
  out.push(errors > 0 ? paint('red', line) : warnings > 0 ? paint('yellow', line) : line);
  const skipped = skippedLine(result.summary.skipped);
  if (skipped) out.push(paint('dim', skipped));
  return out.join('\n') + '\n';
}

function formatFinding(finding: LintFinding, paint: (style: keyof typeof STYLES, text: string) => string): string {
  const severity = finding.suppressed
    ? paint('dim', 'suppressed')
    : finding.baselined
      ? paint('dim', 'baselined ')
      : finding.severity === 'error'
        ? paint('red', 'error     ')
        : paint('yellow', 'warning   ');
  const where = [
    finding.object.kind !== null || finding.object.name !== null ? describeRef(finding.object) : '',
    finding.path,
  ]
    .filter((part) => part !== '')
    .join('  ');
  const head = `  ${String(finding.line ?? '-').padStart(5)}  ${severity}  ${terminalSafe(where ? `${where}  ` : '')}${terminalSafe(finding.message)}  ${paint('dim', finding.rule)}`;
  const tail =
    finding.suppressed && finding.justification
      ? `         ${paint('dim', `suppressed because: ${terminalSafe(finding.justification)}`)}`
      : `         ${paint('dim', `fix: ${terminalSafe(finding.fix)}`)}`;
  return `${head}\n${tail}`;
}

/** What a directory walk left out, so nothing is skipped in silence. */
function skippedLine({
  helmCharts,
  templates,
  notKubernetes,
  kustomizePatches,
  kustomizeData,
  encrypted,
}: SkippedCounts): string | undefined {
  const parts = [
    helmCharts > 0 ? `${helmCharts} Helm chart${helmCharts === 1 ? '' : 's'}` : '',
    templates > 0
      ? `${templates} template file${templates === 1 ? '' : 's'} (no YAML until rendered: {{ ... }}, ytt, placeholders)`
      : '',
    notKubernetes > 0
      ? `${notKubernetes} unparseable file${notKubernetes === 1 ? '' : 's'} without apiVersion or kind`
      : '',
    kustomizePatches > 0
      ? `${kustomizePatches} kustomize patch file${kustomizePatches === 1 ? '' : 's'} (checked only for values a patch sets whole)`
      : '',
    kustomizeData > 0
      ? `${kustomizeData} kustomize data file${kustomizeData === 1 ? '' : 's'} (generator files, Helm values)`
      : '',
    encrypted > 0
      ? `${encrypted} git-crypt encrypted file${encrypted === 1 ? '' : 's'} (git-crypt unlock to lint them)`
      : '',
  ].filter((part) => part !== '');
  if (parts.length === 0) return undefined;
  const hint =
    helmCharts + templates > 0 ? '; lint what they render to, e.g. `helm template ./chart | ballast lint -`' : '';
  return `skipped: ${parts.join(', ')}${hint}`;
}

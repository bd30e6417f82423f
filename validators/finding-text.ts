import { Finding, describeObject } from './finding';
import { KubeVersion } from './kube-version';
import { VersionSource } from './options';
import { suppressionAnnotation } from './suppression';
import { terminalSafe } from './terminal-text';

/**
 * How every door words a finding in text: the synth gate's message, the cdk8s-cli plugin's
 * report, the Pulumi policy pack's violations and `ballast lint`'s text output. One wording,
 * so a finding reads the same wherever a team meets it; input-derived parts are made
 * terminal-safe here, once.
 */

/** `error rwo-claim-in-rolling-deployment: Deployment shop/db at app/db, field spec.strategy: ... Fix: ...` */
export function findingLine(finding: Finding): string {
  const source = finding.source;
  const where = source.constructPath ?? (source.file ? `${source.file}:${source.line ?? 1}` : '');
  const state = finding.suppressed ? `suppressed ${finding.severity}` : finding.severity;
  return terminalSafe(
    `${state} ${finding.rule}: ${describeObject(finding.object)}` +
      `${where ? ` at ${where}` : ''}${finding.path ? `, field ${finding.path}` : ''}: ${finding.message}` +
      ` Fix: ${finding.fix}${finding.suppressed ? ` (suppressed: ${finding.justification ?? ''})` : ''}`,
  );
}

/** How to accept a finding for one object instead of fixing it, and where to read more. */
export function acceptAdvice(ruleId: string): string {
  return (
    `To accept it for this object, annotate it with ${suppressionAnnotation(ruleId)}: "<reason>". ` +
    `Details: ballast explain ${ruleId}`
  );
}

/** `Kubernetes 1.31 (from BALLAST_KUBERNETES_VERSION)`: the target, printed in every report. */
export function targetDescription(version: KubeVersion | string, source: VersionSource, declaredBy?: string): string {
  const origin: Record<VersionSource, string> = {
    'command line': 'from --kube-version',
    environment: 'from BALLAST_KUBERNETES_VERSION',
    configuration: 'from the configuration',
    input: `declared by the input: ${declaredBy ?? 'a control-plane version'}; --kube-version overrides it`,
    default: 'the default: the newest version the rules know',
  };
  return `Kubernetes ${version.toString()} (${origin[source]})`;
}

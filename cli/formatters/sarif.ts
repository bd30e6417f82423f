import * as path from 'path';
import type * as Sarif from 'sarif';
import { ALL_RULES, Rule, ruleParameters } from '../../validators';
import { REPOSITORY_URL } from '../package-info';
import { YAML_SYNTAX_ERROR } from '../load-manifests';
import { FormatOptions, LintFinding, LintResult, describeRef } from '../lint-result';

/** Each rule's entry in the catalogue: the anchor is the rule id (docs/rules.md headings). */
const RULES_DOC = `${REPOSITORY_URL}/blob/main/docs/rules.md`;

/** The loader's own finding, described like a rule so code scanning can show help for it. */
const YAML_SYNTAX_RULE: Sarif.ReportingDescriptor = {
  id: YAML_SYNTAX_ERROR,
  name: 'YamlSyntaxError',
  shortDescription: { text: 'The file is not valid YAML (or is binary), so its objects cannot be checked.' },
  fullDescription: { text: 'The file is not valid YAML (or is binary), so its objects cannot be checked.' },
  help: { text: 'Fix the YAML syntax at the reported line.', markdown: 'Fix the YAML syntax at the reported line.' },
  helpUri: `${RULES_DOC}#${YAML_SYNTAX_ERROR}`,
  defaultConfiguration: { level: 'error' },
};

/**
 * SARIF 2.1.0 as GitHub code scanning accepts it: every rule with help text, results with a
 * repository-relative file URI and a line region, suppressed findings as in-source suppressions.
 */
export function formatSarif(result: LintResult, options: FormatOptions): string {
  const rules = [...ALL_RULES.map(toDescriptor), YAML_SYNTAX_RULE];
  const ruleIndex = new Map(rules.map((rule, i) => [rule.id, i]));
  const log: Sarif.Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'ballast',
            version: options.version,
            semanticVersion: options.version,
            informationUri: REPOSITORY_URL,
            rules,
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileUri(process.cwd()) + '/' } },
        results: result.findings.map((finding) =>
          toResult(finding, ruleIndex.get(finding.rule), result.baselineFile !== undefined),
        ),
        properties: {
          kubernetesVersion: result.target.kubernetesVersion,
          kubernetesVersionSource: result.target.source,
          ...(result.target.upgradeFrom !== undefined ? { upgradeFrom: result.target.upgradeFrom } : {}),
        },
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

function toDescriptor(rule: Rule): Sarif.ReportingDescriptor {
  const example = rule.example
    ? `\n\nBad:\n\n\`\`\`yaml\n${rule.example.bad}\n\`\`\`\n\nGood:\n\n\`\`\`yaml\n${rule.example.good}\n\`\`\``
    : '';
  const parameters = ruleParameters(rule.id);
  return {
    id: rule.id,
    name: rule.id
      .split('-')
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(''),
    shortDescription: { text: rule.summary },
    fullDescription: { text: rule.why },
    help: {
      text: `${rule.summary}\n\nWhy: ${rule.why}\n\nFix: ${rule.fix}`,
      markdown: `**${rule.summary}**\n\n**Why:** ${rule.why}\n\n**Fix:** ${rule.fix}${example}\n\nSuppress with the annotation \`ballast.dev/suppress.${rule.id}: "<reason>"\`.`,
    },
    helpUri: `${RULES_DOC}#${rule.id}`,
    defaultConfiguration: {
      level: rule.severity,
      enabled: rule.optIn !== true,
      // SARIF's reportingConfiguration.parameters: the rule's parameters at their defaults.
      ...(parameters.length > 0
        ? { parameters: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.default])) }
        : {}),
    },
    properties: { tags: ['kubernetes', 'ballast'], precision: 'high', scope: [...rule.scope] },
  };
}

/** `compared`: the findings were compared with a suppressions file, so each has a baseline state. */
function toResult(finding: LintFinding, ruleIndex: number | undefined, compared: boolean): Sarif.Result {
  const subject =
    finding.object.kind !== null || finding.object.name !== null ? `${describeRef(finding.object)}: ` : '';
  const at = finding.path ? ` (at ${finding.path})` : '';
  return {
    ruleId: finding.rule,
    ...(ruleIndex !== undefined ? { ruleIndex } : {}),
    level: finding.severity,
    message: { text: `${subject}${finding.message}${at}\nFix: ${finding.fix}` },
    locations: [
      {
        physicalLocation: {
          artifactLocation: artifactLocation(finding.file),
          // GitHub requires a region; line 1 when the position is unknown.
          region: { startLine: finding.line ?? 1 },
        },
        ...(finding.object.kind !== null
          ? {
              logicalLocations: [
                {
                  name: describeRef(finding.object),
                  kind: 'object',
                  fullyQualifiedName: finding.path
                    ? `${describeRef(finding.object)}.${finding.path}`
                    : describeRef(finding.object),
                },
              ],
            }
          : {}),
      },
    ],
    ...(finding.suppressed ? { suppressions: [{ kind: 'inSource', justification: finding.justification ?? '' }] } : {}),
    // Code scanning matches results across runs by these, not by line.
    partialFingerprints: { 'ballastFinding/v1': finding.fingerprint },
    ...(finding.replacements && finding.replacements.length > 0 && finding.file !== null
      ? {
          fixes: [
            {
              description: {
                text: `ballast fix: ${finding.fix}${finding.precondition !== undefined ? ` Before applying: ${finding.precondition}.` : ''}`,
              },
              artifactChanges: [
                {
                  artifactLocation: artifactLocation(finding.file),
                  replacements: finding.replacements.map((replacement) => ({
                    deletedRegion: { charOffset: replacement.start, charLength: replacement.end - replacement.start },
                    ...(replacement.text !== '' ? { insertedContent: { text: replacement.text } } : {}),
                  })),
                },
              ],
            },
          ],
        }
      : {}),
    ...(compared ? { baselineState: finding.baselined ? 'unchanged' : 'new' } : {}),
  };
}

/** Paths under the working directory become relative URIs (what code scanning maps to the repository). */
function artifactLocation(file: string | null): Sarif.ArtifactLocation {
  if (file === null || file === '<stdin>') return { uri: 'stdin' };
  const relative = path.relative(process.cwd(), path.resolve(file));
  if (!relative.startsWith('..') && !path.isAbsolute(relative)) {
    return { uri: encodePath(relative.split(path.sep).join('/')), uriBaseId: '%SRCROOT%' };
  }
  return { uri: pathToFileUri(path.resolve(file)) };
}

function pathToFileUri(absolute: string): string {
  return `file://${encodePath(absolute.split(path.sep).join('/'))}`;
}

function encodePath(uriPath: string): string {
  return uriPath.split('/').map(encodeURIComponent).join('/');
}

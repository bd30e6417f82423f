import * as path from 'path';
import { ApiObject, Chart } from 'cdk8s';
import { ValidationContext } from 'cdk8s-cli/plugins';
import { loadAll } from 'js-yaml';
import { BallastGate } from '../../constructs/ballast-gate';
import { BallastValidation } from '../../plugins/cdk8s/ballast-validation';
import { ballastStackViolations } from '../../stacks/policy-pack/ballast-policies';
import { StackResource } from '../../stacks/policy-pack/kubernetes-resources';
import { BallastOptions, listedObjects } from '../../validators';
import { lintJson, tempTree } from '../cli/run-cli';
import { testApp } from '../support/test-app';

/**
 * Runs the same manifests with the same options through each of the four doors, the way a user
 * meets them, and returns what each found as comparable lines: `severity rule kind ns/name path`.
 */
export type DoorFindings = string[];

const line = (
  severity: string,
  rule: string,
  kind: unknown,
  namespace: unknown,
  name: unknown,
  field: string,
): string => `${severity} ${rule} ${str(kind)} ${str(namespace)}/${str(name)} ${field}`;

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The synth gate: each document a raw ApiObject in one chart. */
export function gateFindings(manifests: string, options: BallastOptions): DoorFindings {
  const app = testApp();
  const gate = new BallastGate(app, { ...options, log: () => undefined });
  const chart = new Chart(app, 'doors');
  documents(manifests).forEach((document, i) => new ApiObject(chart, `object-${i}`, document as never));
  return gate
    .validateApp()
    .findings.filter((f) => !f.suppressed)
    .map((f) => line(f.severity, f.rule, f.object.kind, f.object.namespace, f.object.name, f.path))
    .sort();
}

/** `ballast lint --config .ballast.yaml manifests.yaml`. */
export async function lintFindings(manifests: string, options: BallastOptions): Promise<DoorFindings> {
  const tree = tempTree({ 'manifests.yaml': manifests, '.ballast.yaml': JSON.stringify(options) });
  try {
    const { json } = await lintJson([
      '--config',
      path.join(tree.dir, '.ballast.yaml'),
      path.join(tree.dir, 'manifests.yaml'),
    ]);
    return json.findings
      .filter((f) => !f.suppressed)
      .map((f) => line(f.severity, f.rule, f.object.kind, f.object.namespace, f.object.name, f.path))
      .sort();
  } finally {
    tree.cleanup();
  }
}

/** The cdk8s-cli plugin on a synthesized manifest file, with cdk8s-cli's own ValidationContext. */
export async function pluginFindings(manifests: string, options: BallastOptions): Promise<DoorFindings> {
  const tree = tempTree({ 'doors.k8s.yaml': manifests });
  try {
    const context = new ValidationContext([path.join(tree.dir, 'doors.k8s.yaml')], 'ballast', '0.2.0', {}, false);
    await new BallastValidation(options).validate(context);
    const objects = documents(manifests).flatMap((document) => listedObjects(document).map(({ object }) => object));
    const byName = new Map(
      objects.map((object) => [str((object.metadata as Record<string, unknown> | undefined)?.name), object]),
    );
    return context.report
      .toJson()
      .violations.flatMap((violation) =>
        violation.violatingConstructs.map((resource) => {
          const object = byName.get(resource.resourceName);
          const metadata = object?.metadata as Record<string, unknown> | undefined;
          const severity = violation.recommendation.split(' ')[0] ?? '';
          return line(
            severity,
            violation.ruleName,
            object?.kind,
            metadata?.namespace,
            resource.resourceName,
            resource.locations[0] ?? '',
          );
        }),
      )
      .sort();
  } finally {
    tree.cleanup();
  }
}

/** The Pulumi policy pack's stack policies, each document a resource of its type token. */
export function policyFindings(manifests: string, options: BallastOptions): DoorFindings {
  const resources: StackResource[] = documents(manifests).map((object, i) => {
    const apiVersion = str(object.apiVersion);
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['core', apiVersion];
    const type = `kubernetes:${group}/${version}:${str(object.kind)}`;
    return { type, name: `r${i}`, urn: `urn:pulumi:dev::doors::${type}::r${i}`, props: object };
  });
  const objects = resources.flatMap((resource) =>
    listedObjects(resource.props).map(({ object }) => ({ urn: resource.urn, object })),
  );
  return (['error', 'warning'] as const)
    .flatMap((severity) =>
      ballastStackViolations(resources, severity, options).map((violation) => {
        const field = /, field (\S+):/.exec(violation.message)?.[1] ?? '';
        const described = /: (\S+) (?:(\S+)\/)?(\S+) at /.exec(violation.message);
        const object = objects.find(
          ({ urn, object: candidate }) =>
            urn === violation.urn &&
            str((candidate.metadata as Record<string, unknown> | undefined)?.name) === described?.[3],
        )?.object;
        const metadata = object?.metadata as Record<string, unknown> | undefined;
        return line(severity, violation.rule, object?.kind, metadata?.namespace, metadata?.name, field);
      }),
    )
    .sort();
}

function documents(manifests: string): Array<Record<string, unknown>> {
  return (loadAll(manifests) as unknown[]).filter(
    (document): document is Record<string, unknown> => typeof document === 'object' && document !== null,
  );
}

import * as path from 'path';
import { lint } from '../../cli/lint-command';
import { UNREAD_BODY_KINDS, droppableBodies, identityOnly } from '../../cli/unread-bodies';
import { ALL_RULES } from '../../validators';
import { tempTree } from './run-cli';

const crd = (name: string, group: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name, annotations: { 'controller-gen.kubebuilder.io/version': 'v0.16.0' } },
  spec: {
    group,
    names: { kind: 'Widget', plural: 'widgets' },
    scope: 'Namespaced',
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', ...extra } } }],
  },
});

describe('lint keeps no body of the kinds no rule reads (CustomResourceDefinition)', () => {
  test('no rule looks at those kinds by name: a rule that starts to must take the kind out of UNREAD_BODY_KINDS', () => {
    for (const rule of ALL_RULES) {
      const unread = rule.scope.filter((entry) => UNREAD_BODY_KINDS.has(entry.split(' ')[0] ?? ''));
      expect({ rule: rule.id, unread }).toEqual({ rule: rule.id, unread: [] });
    }
  });

  test('a CRD alone of its name in its file keeps only apiVersion, kind, metadata and its names; two of one name keep their bodies', () => {
    const lone = crd('widgets.example.com', 'example.com');
    const twinA = crd('gadgets.example.com', 'example.com');
    const twinB = crd('gadgets.example.com', 'example.com', { description: 'v2' });
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} };
    expect([...droppableBodies([lone, twinA, twinB, pod])]).toEqual([lone]);
    expect(identityOnly(lone)).toEqual({
      apiVersion: lone.apiVersion,
      kind: lone.kind,
      metadata: lone.metadata,
      spec: { names: lone.spec.names },
    });
  });

  test('two different definitions of one CRD in a file are still a duplicate-object error; a lone CRD raises nothing', () => {
    const yaml = (objects: unknown[]) => objects.map((object) => JSON.stringify(object)).join('\n---\n');
    const tree = tempTree({
      'bundle.yaml': yaml([
        crd('gadgets.example.com', 'example.com'),
        crd('gadgets.example.com', 'example.com', { description: 'v2' }),
      ]),
      'lone.yaml': yaml([crd('widgets.example.com', 'example.com')]),
      // `kubectl get crd -o yaml` writes a List.
      'list.yaml': JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [crd('things.example.com', 'example.com')],
      }),
    });
    try {
      const result = lint([tree.dir], { cwd: tree.dir });
      expect(result.findings.map((f) => [f.rule, path.basename(f.file ?? '')])).toEqual([
        ['duplicate-object', 'bundle.yaml'],
        ['duplicate-object', 'bundle.yaml'],
      ]);
      expect(result.summary.objects).toBe(4);
    } finally {
      tree.cleanup();
    }
  });
});

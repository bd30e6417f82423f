import { Rule } from '../../rule';

export const objectWithoutType: Rule = {
  id: 'object-without-type',
  severity: 'error',
  scope: ['*'],
  summary: 'A document has a kind without an apiVersion, or an apiVersion without a kind.',
  why:
    "kubectl and the API server refuse an object whose type is incomplete (`Object 'Kind' is missing`, " +
    '`apiVersion not set`), so the whole apply fails; no rule can check it either, since what it is is unknown. ' +
    'ballast reports it instead of skipping it in silence.',
  fix: 'Set both `apiVersion` (e.g. `apps/v1`) and `kind` (e.g. `Deployment`); a document that is not a Kubernetes object belongs in another file.',
  example: {
    bad: ['kind: ConfigMap', 'metadata: {name: settings}'].join('\n'),
    good: ['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: settings}'].join('\n'),
  },
  check(context) {
    for (const object of context.index.objects) {
      const { apiVersion, kind } = object.ref;
      if (apiVersion !== undefined && kind !== undefined) continue;
      const missing = apiVersion === undefined ? 'apiVersion' : 'kind';
      context.report(object, {
        path: missing,
        message: `the document has ${missing === 'kind' ? 'an apiVersion' : 'a kind'} but no ${missing} (or it is not a text): kubectl refuses it, and no rule can check it.`,
      });
    }
  },
};

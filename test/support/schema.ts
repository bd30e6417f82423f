/**
 * Offline validation against the Kubernetes OpenAPI schema with `kubernetes-models`.
 *
 * kubernetes-models wrongly requires apiVersion/kind on the PersistentVolumeClaim entries of a
 * StatefulSet's `volumeClaimTemplates`; they are filled in on a copy for the check only, never in
 * the synthesized output.
 */
export function schemaErrors(object: Record<string, any>): string[] {
  const apiVersion: string = object.apiVersion;
  const kind: string = object.kind;
  let models: Record<string, any>;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    models = require(`kubernetes-models/${apiVersion}`);
  } catch {
    return [`no schema for apiVersion ${apiVersion}`];
  }
  const Model = models[kind];
  if (typeof Model !== 'function') return [`no schema for ${apiVersion} ${kind}`];
  const copy = JSON.parse(JSON.stringify(object));
  if (kind === 'StatefulSet' && Array.isArray(copy.spec?.volumeClaimTemplates)) {
    for (const template of copy.spec.volumeClaimTemplates) {
      template.apiVersion ??= 'v1';
      template.kind ??= 'PersistentVolumeClaim';
    }
  }
  try {
    new Model(copy).validate();
    return [];
  } catch (error) {
    return [`${kind} ${copy.metadata?.name}: ${(error as Error).message}`];
  }
}

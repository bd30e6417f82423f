import * as jsYaml from 'js-yaml';

/**
 * A local tag (`!has(projectcalico.org/name)`, `!Ref`) is read as if it were not there, as kubectl
 * reads it: its YAML library keeps the node's value and drops the tag, so `selector: !has(x)` (a
 * Calico selector left unquoted) is the empty string and `!foo bar` is "bar". js-yaml's `multi`
 * types match every tag with the prefix `!`, one type per kind of node.
 */
const LOCAL_TAGS: jsYaml.Type[] = [
  new jsYaml.Type('!', { kind: 'scalar', multi: true, construct: (data: string | null) => data ?? '' }),
  new jsYaml.Type('!', { kind: 'sequence', multi: true, construct: (data: unknown[] | null) => data ?? [] }),
  new jsYaml.Type('!', { kind: 'mapping', multi: true, construct: (data: object | null) => data ?? {} }),
];

/**
 * How ballast reads YAML: the YAML 1.2 core schema (null, booleans, integers, floats), merge keys
 * (`<<`), the explicit `!!binary`/`!!omap`/`!!pairs`/`!!set` tags and local tags (read without
 * them), but no implicit timestamps.
 * Kubernetes objects are JSON: the API server reads `2024-01-01` as a string, never a date, and so
 * do ballast's rules. (js-yaml's default schema would turn it into a Date object.)
 */
export const KUBERNETES_YAML_SCHEMA: jsYaml.Schema = (() => {
  // js-yaml 4 exports its built-in types as `types`; @types/js-yaml does not declare it.
  const types = (jsYaml as unknown as { types: Record<'merge' | 'binary' | 'omap' | 'pairs' | 'set', jsYaml.Type> })
    .types;
  return jsYaml.CORE_SCHEMA.extend({
    implicit: [types.merge],
    explicit: [types.binary, types.omap, types.pairs, types.set, ...LOCAL_TAGS],
  });
})();

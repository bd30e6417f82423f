import * as jsYaml from 'js-yaml';

/**
 * How ballast reads YAML: the YAML 1.2 core schema (null, booleans, integers, floats), merge keys
 * (`<<`), and the explicit `!!binary`/`!!omap`/`!!pairs`/`!!set` tags, but no implicit timestamps.
 * Kubernetes objects are JSON: the API server reads `2024-01-01` as a string, never a date, and so
 * do ballast's rules. (js-yaml's default schema would turn it into a Date object.)
 */
export const KUBERNETES_YAML_SCHEMA: jsYaml.Schema = (() => {
  // js-yaml 4 exports its built-in types as `types`; @types/js-yaml does not declare it.
  const types = (jsYaml as unknown as { types: Record<'merge' | 'binary' | 'omap' | 'pairs' | 'set', jsYaml.Type> })
    .types;
  return jsYaml.CORE_SCHEMA.extend({
    implicit: [types.merge],
    explicit: [types.binary, types.omap, types.pairs, types.set],
  });
})();

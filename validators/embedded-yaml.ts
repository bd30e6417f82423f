import * as jsYaml from 'js-yaml';
import { JsonRecord, isRecord } from './json';
import { KUBERNETES_YAML_SCHEMA } from './yaml-schema';

/** Configuration held as text inside another object (a ConfigMap value) is read only up to this size. */
export const MAX_EMBEDDED_CONFIG = 256 * 1024;

/**
 * The mappings of a YAML stream held as text inside another object, such as a component
 * configuration in a ConfigMap value; nothing when it is too large or not YAML. Parsed like
 * manifests (KUBERNETES_YAML_SCHEMA); aliases stay shared references, never expanded.
 */
export function embeddedYamlDocuments(text: string): JsonRecord[] {
  if (text.length > MAX_EMBEDDED_CONFIG) return [];
  try {
    return jsYaml.loadAll(text, undefined, { schema: KUBERNETES_YAML_SCHEMA }).filter(isRecord);
  } catch {
    return [];
  }
}

import { JsonRecord, asArray, asRecord, asString, isRecord } from './json';

/**
 * OpenShift's Template (`template.openshift.io/v1`, or `v1` in OpenShift 3 manifests): a list of
 * objects in `objects`, with `${PARAMETER}` placeholders that `oc process` fills in. Its objects
 * are what a cluster runs, so ballast reads each of them as `oc process` renders it with the
 * parameters' default `value`s: `${NAME}` inside a string becomes the value, and `${{NAME}}` as a
 * whole value becomes the value read as JSON (a number, a boolean), as `oc process` does. A
 * parameter without a value (generated, or required from the user) stays as written.
 */
export function isOpenShiftTemplate(value: unknown): value is JsonRecord & { objects: unknown[] } {
  return (
    isRecord(value) &&
    value.kind === 'Template' &&
    (value.apiVersion === 'v1' || value.apiVersion === 'template.openshift.io/v1') &&
    Array.isArray(value.objects)
  );
}

/** The template's objects with its parameters' default values filled in (each object, in order). */
export function renderedTemplateObjects(template: JsonRecord & { objects: unknown[] }): unknown[] {
  const values = new Map<string, string>();
  for (const parameter of asArray(template.parameters)) {
    const name = asString(asRecord(parameter)?.name);
    const value = asString(asRecord(parameter)?.value);
    if (name !== undefined && value !== undefined) values.set(name, value);
  }
  if (values.size === 0) return template.objects;
  // A node YAML aliases in many places is rendered once and shared again: an alias bomb stays small.
  const rendered = new Map<object, unknown>();
  const render = (value: unknown): unknown => {
    if (typeof value === 'string') return renderString(value, values);
    if (value === null || typeof value !== 'object') return value;
    const done = rendered.get(value);
    if (done !== undefined) return done;
    if (Array.isArray(value)) {
      const copy: unknown[] = [];
      rendered.set(value, copy);
      for (const item of value) copy.push(render(item));
      return copy;
    }
    if (!isRecord(value)) return value;
    const copy: JsonRecord = {};
    rendered.set(value, copy);
    for (const key of Object.keys(value)) {
      // js-yaml keeps a `__proto__` key as an own field; plain assignment would set the prototype.
      Object.defineProperty(copy, key, {
        value: render(value[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  };
  return template.objects.map(render);
}

function renderString(text: string, values: ReadonlyMap<string, string>): unknown {
  const whole = /^\$\{\{([A-Za-z0-9_]+)\}\}$/.exec(text);
  if (whole) {
    const value = values.get(whole[1] ?? '');
    if (value === undefined) return text;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return text.replace(/\$\{([A-Za-z0-9_]+)\}/g, (placeholder, name: string) => values.get(name) ?? placeholder);
}

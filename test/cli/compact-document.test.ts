import { loadAll } from 'js-yaml';
import { Interner } from '../../cli/compact-document';
import { KUBERNETES_YAML_SCHEMA } from '../../validators/yaml-schema';

const parse = (text: string) => loadAll(text, undefined, { schema: KUBERNETES_YAML_SCHEMA })[0];

describe('Interner: lint keeps each parsed document in its compact form', () => {
  test('the rebuilt document equals the parsed one, !!binary bytes included', () => {
    const parsed = parse(
      'kind: Secret\nmetadata: {name: a-rather-long-secret-name, labels: {app.kubernetes.io/name: web}}\ndata: {k: !!binary aGVsbG8=}\nlist: [1, two, null, true]\n',
    );
    const compact = new Interner().compact(parsed);
    expect(compact).toEqual(parsed);
    expect(Buffer.from((compact as { data: { k: Uint8Array } }).data.k).toString()).toBe('hello');
  });

  test('a node aliased in many places is rebuilt once and shared: an alias bomb stays small', () => {
    const levels = Array.from({ length: 30 }, (_, i) => `l${i + 1}: &l${i + 1} [*l${i}, *l${i}]`);
    const parsed = parse(['l0: &l0 [leaf]', ...levels, 'top: *l30', ''].join('\n')) as Record<string, unknown[]>;
    const compact = new Interner().compact(parsed) as Record<string, unknown[]>;
    expect(compact.top![0]).toBe(compact.top![1]);
    expect(compact.l1![0]).toBe(compact.l0);
  });

  test('a `__proto__` key stays an own field and never becomes the prototype', () => {
    const parsed = parse('metadata:\n  __proto__: {annotations: {x: y}}\n') as { metadata: object };
    const compact = new Interner().compact(parsed) as { metadata: Record<string, unknown> };
    expect(Object.getPrototypeOf(compact.metadata)).toBe(Object.prototype);
    expect(Object.keys(compact.metadata)).toEqual(['__proto__']);
    expect((compact.metadata as { annotations?: unknown }).annotations).toBeUndefined();
  });
});

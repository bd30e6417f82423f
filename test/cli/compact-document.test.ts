import { loadAll } from 'js-yaml';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Interner } from '../../cli/compact-document';
import { loadManifests } from '../../cli/load-manifests';
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

  test('a document said to share no node is rebuilt equal, and an alias bomb through lint stays shared', () => {
    const parsed = parse('kind: ConfigMap\nmetadata: {name: settings}\ndata: {a: one, b: two}\n');
    expect(new Interner().compact(parsed, false)).toEqual(parsed);
    // lint decides by the text: an anchor (`&`) means nodes may be shared, so they are tracked.
    const bomb = ['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: bomb}', 'l0: &l0 [leaf]'];
    for (let i = 1; i <= 12; i++) bomb.push(`l${i}: &l${i} [*l${i - 1}, *l${i - 1}]`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ballast-alias-'));
    try {
      fs.writeFileSync(path.join(dir, 'bomb.yaml'), [...bomb, 'top: *l12', ''].join('\n'));
      const [loaded] = loadManifests([dir]).objects;
      const top = (loaded?.object as Record<string, unknown[]>).top!;
      expect(top[0]).toBe(top[1]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

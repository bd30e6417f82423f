import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { loadManifests } from '../../cli/load-manifests';
import { SourcePositions } from '../../cli/source-positions';
import { fieldPath } from '../../validators';
import { CORPUS_DIR } from '../support/corpus';

/** Every field path of a JSON value (depth-bounded), Kubernetes style. */
function fieldPaths(
  value: unknown,
  prefix: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
  depth = 0,
): Array<Array<string | number>> {
  if (depth > 12) return out;
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push([...prefix, i]);
      fieldPaths(item, [...prefix, i], out, depth + 1);
    });
  } else if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) {
      // A key ending in ']' or holding both '.' and '[' cannot round-trip through a field path.
      if (key === '' || key.includes(']')) continue;
      out.push([...prefix, key]);
      fieldPaths(item, [...prefix, key], out, depth + 1);
    }
  }
  return out;
}

/** The line of a key (or a list item) by the `yaml` package: the reference the fast locator must match. */
function referenceLine(
  document: YAML.Document,
  counter: YAML.LineCounter,
  segments: Array<string | number>,
): number | undefined {
  let node: unknown = document.contents;
  let offset: number | undefined;
  for (const segment of segments) {
    if (YAML.isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
      offset = (node as { range?: number[] }).range?.[0];
    } else if (YAML.isMap(node)) {
      const pair = node.items.find((item) => YAML.isScalar(item.key) && String(item.key.value) === String(segment));
      if (!pair) return undefined;
      offset = (pair.key as YAML.Scalar).range?.[0];
      node = pair.value;
    } else {
      return undefined;
    }
  }
  return offset === undefined ? undefined : counter.linePos(offset).line;
}

const available = fs.existsSync(CORPUS_DIR);
(available ? describe : describe.skip)('source positions', () => {
  test('the line of every field of every corpus object matches the yaml package', () => {
    const manifests = loadManifests([CORPUS_DIR], { readStdin: () => '' });
    const positions = new SourcePositions(manifests.readText);
    const documents = new Map<string, { docs: YAML.Document[]; counter: YAML.LineCounter }>();
    const mismatches: string[] = [];
    let checked = 0;
    for (const { object, source } of manifests.objects) {
      let parsed = documents.get(source.file);
      if (!parsed) {
        const counter = new YAML.LineCounter();
        parsed = {
          docs: YAML.parseAllDocuments(fs.readFileSync(source.file, 'utf8'), { lineCounter: counter }),
          counter,
        };
        documents.set(source.file, parsed);
      }
      for (const segments of fieldPaths(object)) {
        const full = source.listItemIndex === undefined ? segments : ['items', source.listItemIndex, ...segments];
        const expected = referenceLine(parsed.docs[source.documentIndex]!, parsed.counter, full);
        if (expected === undefined) continue;
        checked++;
        const actual = positions.lineOf({ source, path: fieldPath(...segments) });
        if (actual !== expected)
          mismatches.push(
            `${path.relative(CORPUS_DIR, source.file)} ${fieldPath(...segments)}: ${actual} != ${expected}`,
          );
      }
    }
    expect(checked).toBeGreaterThan(10000);
    expect(mismatches.slice(0, 20)).toEqual([]);
  });

  const at = (text: string, fieldPathText: string, documentIndex = 0, listItemIndex?: number) => {
    const positions = new SourcePositions(() => text);
    return positions.lineOf({ source: { file: 'x.yaml', documentIndex, listItemIndex }, path: fieldPathText });
  };

  test('finds fields in flow style, JSON, lists and later documents', () => {
    expect(
      at('a: 1\n---\nkind: Pod\nspec:\n  volumes:\n  - name: x\n    nfs: {server: s}\n', 'spec.volumes[0].nfs', 1),
    ).toBe(7);
    expect(
      at(
        '{\n  "kind": "Pod",\n  "spec": {\n    "volumes": [\n      {"name": "x"}\n    ]\n  }\n}\n',
        'spec.volumes[0].name',
      ),
    ).toBe(5);
    expect(at('kind: Pod\nspec: {volumes: [{name: a},\n  {name: b}]}\n', 'spec.volumes[1].name')).toBe(3);
    expect(at('kind: List\nitems:\n- kind: A\n- kind: B\n  metadata:\n    name: b\n', 'metadata.name', 0, 1)).toBe(6);
  });

  test('a missing field resolves to its nearest parent; CRLF and BOM do not shift lines', () => {
    expect(at('kind: Pod\nspec:\n  containers: []\n', 'spec.nodeSelector')).toBe(2);
    expect(
      at(
        '\ufeffkind: Pod\r\nmetadata:\r\n  annotations:\r\n    ballast.dev/suppress.x: ""\r\n',
        'metadata.annotations[ballast.dev/suppress.x]',
      ),
    ).toBe(4);
  });
});

import * as fs from 'fs';
import * as path from 'path';
import { loadAll } from 'js-yaml';
import { ReadFile, readFiles } from '../../cli/file-reader';
import { KUBERNETES_YAML_SCHEMA } from '../../validators/yaml-schema';
import { lintJson, tempTree } from './run-cli';

const PATTERNS = { manifest: '\\.(ya?ml|json)$', dropIn: '\\.conf$', skippedDirectories: ['node_modules', '.git'] };

/** YAML whose meaning JSON could not carry: aliases (shared objects), NaN and infinity, binary, merge keys, a `__proto__` key. */
const TRICKY = [
  'apiVersion: v1',
  'kind: ConfigMap',
  'metadata: &meta',
  '  name: tricky-NUMBER',
  '  namespace: db',
  '  labels: {<<: {team: storage}, tier: data}',
  'binaryData:',
  '  blob: !!binary aGVsbG8=',
  'data:',
  '  created: 2024-01-01',
  '  ratio: .nan',
  '  limit: -.inf',
  '  __proto__: {polluted: yes}',
  '  copy: *meta',
  '---',
  'apiVersion: v1',
  'kind: PersistentVolume',
  'metadata: {name: pv-NUMBER, namespace: db}',
  'spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteMany], persistentVolumeReclaimPolicy: Recycle, nfs: {server: nfs, path: /e}}',
  '',
].join('\n');

/** Parses on the reader thread (its stack is larger) but is too deep to rebuild on the main thread. */
const DEEP = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\nx: ${'['.repeat(6000)}${']'.repeat(6000)}\n`;

function trickyTree(count: number) {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) files[`m/${String(i).padStart(4, '0')}.yaml`] = TRICKY.replace(/NUMBER/g, String(i));
  files['m/9998-deep.yaml'] = DEEP;
  files['m/9999-broken.yaml'] = 'kind: [unclosed\n';
  return tempTree(files);
}

describe('the reader thread', () => {
  test('small trees are read on the calling thread', async () => {
    const tree = trickyTree(29);
    try {
      const batches: Array<readonly ReadFile[]> = [];
      for await (const batch of readFiles([tree.dir], PATTERNS)) batches.push(batch);
      expect(batches).toHaveLength(1);
      expect(batches[0]).toHaveLength(31);
      expect(batches[0]!.every((file) => file.documents === undefined && file.text !== undefined)).toBe(true);
    } finally {
      tree.cleanup();
    }
  });

  test("parses files from the end while the caller parses from the front; its documents equal js-yaml's", async () => {
    const tree = trickyTree(300);
    try {
      const seen: ReadFile[] = [];
      for await (const batch of readFiles([tree.dir], PATTERNS, { threadAboveEntries: 0 })) {
        seen.push(...batch);
        // A slow caller: the reader thread finishes reading and takes the rest of the files.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(seen.map((file) => path.basename(file.path))).toEqual(fs.readdirSync(path.join(tree.dir, 'm')).sort());
      const parsedThere = seen.filter((file) => file.documents !== undefined);
      expect(parsedThere.length).toBeGreaterThan(0);
      for (const file of parsedThere) {
        expect(file.documents).toEqual(
          loadAll(fs.readFileSync(file.path, 'utf8'), undefined, { schema: KUBERNETES_YAML_SCHEMA }),
        );
      }
      const [first] = parsedThere;
      const configMap = first!.documents![0] as { metadata: unknown; data: { copy: unknown; ratio: number } };
      expect(configMap.data.copy).toBe(configMap.metadata); // an alias stays one shared object
      expect(configMap.data.ratio).toBeNaN();
      // A file it cannot parse comes back as text, for the caller to report; so does one nested
      // deeper than the calling thread can receive.
      const broken = seen.find((file) => file.path.endsWith('9999-broken.yaml'))!;
      expect(broken.documents).toBeUndefined();
      expect(broken.text).toBe('kind: [unclosed\n');
      const deep = seen.find((file) => file.path.endsWith('9998-deep.yaml'))!;
      expect(deep.documents).toBeUndefined();
      expect(deep.text).toBe(DEEP);
    } finally {
      tree.cleanup();
    }
  });

  test('lint gives the same result whichever thread parsed a file', async () => {
    const tree = trickyTree(1100); // above the size from which lint starts the reader thread
    try {
      const walked = await lintJson([tree.dir]);
      const files = fs
        .readdirSync(path.join(tree.dir, 'm'))
        .sort()
        .map((file) => path.join(tree.dir, 'm', file));
      const named = await lintJson(files); // files named one by one: all parsed on the main thread
      expect(walked.json.summary).toMatchObject({ files: 1102, objects: 2200 });
      expect(walked.stdout).toBe(named.stdout);
    } finally {
      tree.cleanup();
    }
  });
});

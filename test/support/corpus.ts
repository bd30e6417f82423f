import * as fs from 'fs';
import * as path from 'path';
import * as jsYaml from 'js-yaml';
import { ValidationInput } from '../../validators';

/** The shared regression corpus: real manifests from public repositories, beside the repository as ../shared/corpus. */
export const CORPUS_DIR = path.resolve(__dirname, '..', '..', '..', 'shared', 'corpus');

/** The target version EXPECTED.md was labelled for (the API level of cdk8s-plus-27). */
export const CORPUS_KUBERNETES_VERSION = '1.27';

/** Every YAML file of the corpus, relative to CORPUS_DIR, sorted. */
export function corpusFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ya?ml|json)$/.test(entry.name)) files.push(path.relative(CORPUS_DIR, full));
    }
  };
  walk(CORPUS_DIR);
  return files.sort();
}

/** The objects of every corpus file (v1 Lists flattened), each with its file as source. */
export function corpusInputs(): ValidationInput[] {
  const inputs: ValidationInput[] = [];
  for (const file of corpusFiles()) {
    const documents = jsYaml.loadAll(fs.readFileSync(path.join(CORPUS_DIR, file), 'utf8'));
    for (const document of documents) {
      const list = document as { kind?: unknown; items?: unknown };
      const objects =
        list && typeof list.kind === 'string' && list.kind.endsWith('List') && Array.isArray(list.items)
          ? list.items
          : [document];
      for (const object of objects) inputs.push({ object, source: { file } });
    }
  }
  return inputs;
}

/** A row of EXPECTED.md: a hand-checked bad pattern on one object of one file. */
export interface ExpectedRow {
  readonly file: string;
  readonly pattern: string;
  /** `Kind/name`. */
  readonly object: string;
}

export function expectedRows(): ExpectedRow[] {
  const text = fs.readFileSync(path.join(CORPUS_DIR, 'EXPECTED.md'), 'utf8');
  const rows: ExpectedRow[] = [];
  for (const line of text.split('\n')) {
    const match = /^\| `([^`]+)` \| ([^|]+) \| ([^|]+) \|$/.exec(line.trim());
    if (match) rows.push({ file: match[1] ?? '', pattern: (match[2] ?? '').trim(), object: (match[3] ?? '').trim() });
  }
  return rows;
}

/** The files SOURCES.tsv gives provenance for (its first column, header skipped), sorted. */
export function sourceFiles(): string[] {
  const lines = fs.readFileSync(path.join(CORPUS_DIR, 'SOURCES.tsv'), 'utf8').split('\n').slice(1);
  return lines
    .filter((line) => line.trim() !== '')
    .map((line) => line.split('\t')[0] ?? '')
    .sort();
}

/**
 * EXPECTED.md rows ballast knowingly does not flag, with why (file|Kind/name). Each is asserted:
 * if the rules change and flag it again, this list must be revisited.
 */
export const DISAGREEMENTS: Readonly<Record<string, string>> = {
  'kubernetes-retired__external-storage/local-volume/examples/local-reader.yaml|Deployment/local-test-reader':
    'the claim is a StatefulSet template of class local-storage (local PersistentVolumes): every pod using it ' +
    "is scheduled onto the volume's node, where ReadWriteOnce allows them all, so the rollout cannot hang",
};

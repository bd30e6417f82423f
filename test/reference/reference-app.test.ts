import * as fs from 'fs';
import * as path from 'path';
import * as jsYaml from 'js-yaml';
import { synthOrExit } from '../../constructs';
import { buildReferenceApp } from '../../reference/app';
import { schemaErrors } from '../support/schema';
import { scratchDir } from '../support/scratch-dir';

/** Synthesizes the reference app into a scratch directory and returns file name -> content. */
function synthesizeReferenceApp(): Map<string, string> {
  const outdir = scratchDir('ballast-reference');
  // As main.ts does: synthOrExit also writes the node files.
  synthOrExit(() => buildReferenceApp({ outdir }));
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.set(path.relative(outdir, full), fs.readFileSync(full, 'utf8'));
    }
  };
  walk(outdir);
  return files;
}

const manifests = (files: Map<string, string>) =>
  [...files]
    .filter(([name]) => name.endsWith('.k8s.yaml'))
    .flatMap(([, content]) => jsYaml.loadAll(content) as Array<Record<string, any>>)
    .filter((object) => object !== null);

describe('the reference app', () => {
  const first = synthesizeReferenceApp();

  test('synthesizes byte-identical files on every run', () => {
    expect(synthesizeReferenceApp()).toEqual(first);
  });

  test('every synthesized object is valid against the Kubernetes OpenAPI schema', () => {
    const objects = manifests(first);
    expect(objects.length).toBeGreaterThan(0);
    expect(objects.flatMap(schemaErrors)).toEqual([]);
  });

  // One snapshot per output file, so each chart's output is reviewed on its own.
  test.each([...first.keys()])('%s matches the reviewed output', (file) => {
    expect(first.get(file)).toMatchSnapshot();
  });
});

describe('the schema check itself', () => {
  test('rejects an object that breaks the schema', () => {
    expect(
      schemaErrors({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'x' },
        spec: { accessModes: 'ReadWriteOnce' },
      }),
    ).toEqual([expect.stringContaining('accessModes must be array')]);
  });

  test('fills apiVersion/kind into volumeClaimTemplates only for the check', () => {
    const statefulSet = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: {
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'postgres:16' }] } },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    };
    expect(schemaErrors(statefulSet)).toEqual([]);
    expect(statefulSet.spec.volumeClaimTemplates[0]).not.toHaveProperty('kind');
  });
});

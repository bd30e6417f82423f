import * as fs from 'fs';
import * as path from 'path';
import { CORPUS_DIR, CORPUS_KUBERNETES_VERSION, corpusFiles, expectedRows, DISAGREEMENTS } from '../support/corpus';
import { lintJson } from './run-cli';

/**
 * The "done" check of `ballast lint`: the whole shared corpus in one run, every EXPECTED.md file
 * flagged, and errors on at most 2% of the other files.
 */
const available = fs.existsSync(CORPUS_DIR);
(available ? describe : describe.skip)('ballast lint over the shared corpus', () => {
  test('one run: exit 1, sane summary, every EXPECTED.md file flagged, few errors elsewhere', async () => {
    const { code, json, stderr } = await lintJson([CORPUS_DIR, '--kube-version', CORPUS_KUBERNETES_VERSION]);
    expect(stderr).toBe('');
    const files = corpusFiles();
    expect(code).toBe(1);
    expect(json.summary.files).toBe(files.length);
    expect(json.summary.objects).toBeGreaterThan(300);
    expect(json.summary.errors).toBe(json.findings.filter((f) => f.severity === 'error' && !f.suppressed).length);
    expect(json.summary.warnings).toBe(json.findings.filter((f) => f.severity === 'warning' && !f.suppressed).length);
    expect(json.findings.filter((f) => f.rule === 'yaml-syntax-error')).toEqual([]);
    for (const finding of json.findings) expect(finding.line).toBeGreaterThanOrEqual(1);

    const relative = (file: string | null) => path.relative(CORPUS_DIR, file ?? '');
    const flagged = new Set(json.findings.map((f) => relative(f.file)));
    const expectedFiles = [...new Set(expectedRows().map((row) => row.file))];
    const disagreedFiles = Object.keys(DISAGREEMENTS).map((key) => key.split('|')[0]);
    expect(expectedFiles.filter((file) => !flagged.has(file) && !disagreedFiles.includes(file))).toEqual([]);

    const others = files.filter((file) => !expectedFiles.includes(file));
    const othersWithErrors = new Set(
      json.findings
        .filter((f) => f.severity === 'error' && !f.suppressed)
        .map((f) => relative(f.file))
        .filter((file) => others.includes(file)),
    );
    expect(othersWithErrors.size).toBeLessThanOrEqual(Math.floor(others.length * 0.02));
  });
});

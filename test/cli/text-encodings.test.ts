import * as fs from 'fs';
import * as path from 'path';
import { encodeText } from '../../cli/text-encoding';
import { workloadOnClaim } from '../support/workload-on-claim';
import { ballast, lintJson, tempTree } from './run-cli';

/**
 * Windows PowerShell's `>` writes UTF-16 with a byte-order mark (MustafaSenliik/Kubernetes,
 * held-out-59, holds such files). kubectl applies them (kubernetes/kubernetes#39008), so ballast
 * checks their objects, and `ballast fix` writes them back in their own encoding.
 */
const ROLLING_ON_CLAIM = workloadOnClaim('apps/v1', 'Deployment', ['  selector: {matchLabels: {app: db}}']).join(
  '\r\n',
);

describe('manifests in UTF-16 with a byte-order mark', () => {
  test.each([['utf16le' as const], ['utf16be' as const]])(
    'real world: a %s file with a byte-order mark is read, its finding on the right line',
    async (encoding) => {
      const tree = tempTree({ 'db.yaml': encodeText(ROLLING_ON_CLAIM, encoding) });
      try {
        const { code, json } = await lintJson([tree.dir]);
        expect(code).toBe(1);
        expect(json.findings.map((f) => [f.rule, f.path, f.line])).toEqual([
          ['rwo-claim-in-rolling-deployment', 'spec.template.spec.volumes[0].persistentVolumeClaim', 11],
        ]);
      } finally {
        tree.cleanup();
      }
    },
  );

  test('ballast fix writes a UTF-16 file back in UTF-16 with its byte-order mark, and the error is gone', async () => {
    const tree = tempTree({ 'db.yaml': encodeText(ROLLING_ON_CLAIM, 'utf16le') });
    const file = path.join(tree.dir, 'db.yaml');
    try {
      const fixed = await ballast(['fix', tree.dir]);
      expect(fixed.code).toBe(0);
      const bytes = fs.readFileSync(file);
      expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xfe]);
      const text = new TextDecoder('utf-16le').decode(bytes);
      expect(text).toContain('strategy:');
      expect(text).toContain('\r\n');
      expect((await lintJson([tree.dir])).json.findings).toEqual([]);
    } finally {
      tree.cleanup();
    }
  });

  test('UTF-16 without a byte-order mark, which kubectl cannot read either, is reported as binary', async () => {
    const tree = tempTree({ 'db.yaml': Buffer.from(ROLLING_ON_CLAIM, 'utf16le') });
    try {
      const { json } = await lintJson([tree.dir]);
      expect(json.findings.map((f) => [f.rule, f.line])).toEqual([['yaml-syntax-error', 1]]);
      expect(json.findings[0]?.message).toContain('binary');
    } finally {
      tree.cleanup();
    }
  });
});

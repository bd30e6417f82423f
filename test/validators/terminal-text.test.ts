import * as path from 'path';
import { terminalSafe } from '../../validators';
import { ballast, tempTree } from '../cli/run-cli';

const CLEAR_SCREEN = '\u001b[2J\u001b[H';
const RETITLE = '\u001b]0;owned\u0007';
const FAKE_SUMMARY = '\n0 files, 0 objects: 0 errors, 0 warnings, 0 suppressed';

describe('terminal-safe text output', () => {
  test('control characters, DEL, C1 and bidi overrides become visible escapes; plain text is unchanged', () => {
    expect(terminalSafe(`a${CLEAR_SCREEN}b`)).toBe('a\\x1b[2J\\x1b[Hb');
    expect(terminalSafe(RETITLE)).toBe('\\x1b]0;owned\\x07');
    expect(terminalSafe('line\nbreak\r\t\u007f\u009b')).toBe('line\\nbreak\\r\\t\\x7f\\x9b');
    expect(terminalSafe('evil\u202etxt.yaml')).toBe('evil\\u202etxt.yaml');
    expect(terminalSafe('Deployment shop/db: ünïcode ok')).toBe('Deployment shop/db: ünïcode ok');
  });

  test('hostile object names, namespaces, justifications and file names cannot drive the terminal in `ballast lint`', async () => {
    const name = `db${CLEAR_SCREEN}`;
    const justification = `ok${RETITLE}${FAKE_SUMMARY}`;
    const manifest = [
      'apiVersion: v1',
      'kind: PersistentVolume',
      'metadata:',
      `  name: ${JSON.stringify(name)}`,
      `  namespace: ${JSON.stringify(`ns${RETITLE}`)}`,
      'spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], persistentVolumeReclaimPolicy: Recycle, csi: {driver: x, volumeHandle: y}}',
      '---',
      'apiVersion: v1',
      'kind: PersistentVolume',
      'metadata:',
      '  name: other',
      '  annotations:',
      `    ballast.dev/suppress.recycle-reclaim-policy: ${JSON.stringify(justification)}`,
      'spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], persistentVolumeReclaimPolicy: Recycle, csi: {driver: x, volumeHandle: y}}',
    ].join('\n');
    const fileName = 'pv\u001b[31m.yaml';
    const tree = tempTree({ [fileName]: manifest });
    try {
      const { stdout } = await ballast(['lint', path.join(tree.dir, fileName)]);
      // eslint-disable-next-line no-control-regex
      expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(stdout).toContain('db\\x1b[2J\\x1b[H');
      expect(stdout).toContain('pv\\x1b[31m.yaml');
      expect(stdout).toContain('\\n0 files, 0 objects');
      // The only summary line is ballast's own, last.
      expect(
        stdout
          .trimEnd()
          .split('\n')
          .filter((line) => /^\d+ files?, /.test(line)),
      ).toHaveLength(1);
    } finally {
      tree.cleanup();
    }
  });
});

import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ballast, lintJson, tempTree } from './run-cli';

const PV = (name: string) =>
  `apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: ${name}, namespace: shop}\n` +
  'spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], csi: {driver: rbd.csi.ceph.com, volumeHandle: x}}\n';

describe('ballast lint: bounded, honest input', () => {
  test('a device is refused before anything is read, with the reason', async () => {
    const { code, json } = await lintJson(['/dev/zero']);
    expect(code).toBe(1);
    expect(json.findings).toEqual([
      expect.objectContaining({
        rule: 'yaml-syntax-error',
        file: '/dev/zero',
        message: expect.stringContaining('not a regular file (a character device)'),
      }),
    ]);
  });

  test('a FIFO is refused without waiting for a writer', async () => {
    const tree = tempTree({});
    try {
      const fifo = path.join(tree.dir, 'pipe.yaml');
      execFileSync('mkfifo', [fifo]);
      const { json } = await lintJson([fifo]);
      expect(json.findings[0]?.message).toContain('not a regular file (a FIFO)');
    } finally {
      tree.cleanup();
    }
  });

  test('a file or stdin above --max-file-size is a finding, not read; a bad limit is a usage error', async () => {
    const big = PV('big').repeat(1) + `# ${'x'.repeat(2 * 1024 * 1024)}\n`;
    const tree = tempTree({ 'big.yaml': big, 'small.yaml': PV('small') });
    try {
      const { json } = await lintJson(['--max-file-size', '1', tree.dir]);
      expect(json.findings.map((f) => [path.basename(f.file!), f.rule])).toEqual([
        ['big.yaml', 'yaml-syntax-error'],
        ['small.yaml', 'persistent-volume-with-namespace'],
      ]);
      expect(json.findings[0]?.message).toContain('above the limit of 1 MiB');
      const stdin = await lintJson(['--max-file-size', '1', '-'], big);
      expect(stdin.json.findings[0]).toMatchObject({ file: '<stdin>', rule: 'yaml-syntax-error' });
      const bad = await ballast(['lint', '--max-file-size', 'lots', tree.dir]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--max-file-size takes a size in MiB');
    } finally {
      tree.cleanup();
    }
  });

  test('a file name that is not UTF-8 is read, not reported as unreadable', async () => {
    const tree = tempTree({});
    try {
      const name = Buffer.concat([
        Buffer.from(path.join(tree.dir, 'pv-')),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('.yaml'),
      ]);
      fs.writeFileSync(name, PV('latin1'));
      const { json } = await lintJson([tree.dir]);
      expect(json.findings.map((f) => f.rule)).toEqual(['persistent-volume-with-namespace']);
      expect(json.summary.objects).toBe(1);
    } finally {
      tree.cleanup();
    }
  });

  test('`-` twice is a usage error: standard input can be read only once', async () => {
    const { code, stderr } = await ballast(['lint', '-', '-'], PV('x'));
    expect(code).toBe(2);
    expect(stderr).toContain('`-` (standard input) given twice');
  });

  test('a systemd drop-in on stdin is read as a drop-in, not as YAML', async () => {
    const dropIn = '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--eviction-hard=nodefs.available<5%"\n';
    const { json } = await lintJson(['--kube-version', '1.30', '-'], dropIn);
    expect(json.findings.map((f) => [f.rule, f.line])).toContainEqual(['eviction-hard-drops-default-signals', 2]);
    expect(json.findings.map((f) => f.rule)).not.toContain('yaml-syntax-error');
  });

  test('kubelet --config-dir drop-ins (kubelet.conf.d/*.conf) are read as KubeletConfiguration objects', async () => {
    const tree = tempTree({
      'kubelet.conf.d/50-eviction.conf':
        'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nevictionHard:\n  bogus.available: "5%"\n',
      'nginx/site.conf': 'server { listen 80; }\n',
    });
    try {
      const { json } = await lintJson([tree.dir]);
      expect(json.summary.files).toBe(1);
      expect(json.findings).toContainEqual(expect.objectContaining({ rule: 'eviction-unknown-signal', line: 4 }));
    } finally {
      tree.cleanup();
    }
  });

  test('a merge key cannot plant a suppression on the prototype (CVE-2025-64718)', async () => {
    const manifest = [
      'base: &base',
      '  __proto__:',
      '    ballast.dev/suppress.persistent-volume-with-namespace: "planted"',
      'apiVersion: v1',
      'kind: PersistentVolume',
      'metadata:',
      '  name: data',
      '  namespace: shop',
      '  annotations:',
      '    <<: *base',
      'spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], csi: {driver: x, volumeHandle: y}}',
    ].join('\n');
    const { code, json } = await lintJson(['-'], manifest);
    expect(code).toBe(1);
    expect(json.findings).toContainEqual(
      expect.objectContaining({ rule: 'persistent-volume-with-namespace', suppressed: false }),
    );
    expect(({} as Record<string, unknown>)['ballast.dev/suppress.persistent-volume-with-namespace']).toBeUndefined();
  });

  test('a block YAML List of 2,000 objects with a finding on each: each finding on its own namespace line', async () => {
    const items = Array.from({ length: 2000 }, (_, i) =>
      [
        `- apiVersion: v1`,
        `  kind: PersistentVolume`,
        `  metadata:`,
        `    name: pv-${i}`,
        `    namespace: shop`,
        `  spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], csi: {driver: x, volumeHandle: h${i}}}`,
      ].join('\n'),
    );
    const text = `apiVersion: v1\nkind: List\nitems:\n${items.join('\n')}\n`;
    const lines = text.split('\n');
    const { json } = await lintJson(['-'], text);
    const rows = json.findings.filter((f) => f.rule === 'persistent-volume-with-namespace');
    expect(rows).toHaveLength(2000);
    rows.forEach((finding, i) => {
      expect(lines[(finding.line ?? 0) - 1]).toBe('    namespace: shop');
      expect(lines[(finding.line ?? 0) - 2]).toBe(`    name: pv-${i}`);
    });
  });

  test('a one-line JSON List of 2,000 objects with a finding on each: every finding on line 1, in order', async () => {
    const items = Array.from({ length: 2000 }, (_, i) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: `pv-${i}`, namespace: 'shop' },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        csi: { driver: 'x', volumeHandle: `h${i}` },
      },
    }));
    const { json } = await lintJson(['-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
    const rows = json.findings.filter((f) => f.rule === 'persistent-volume-with-namespace');
    expect(rows).toHaveLength(2000);
    expect(new Set(rows.map((f) => f.line))).toEqual(new Set([1]));
    expect(rows[1999]?.object.name).toBe('pv-1999');
  });
});

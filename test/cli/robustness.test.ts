import { WORKLOAD_KINDS } from '../../validators';
import { ballast, lintJson, LintJson, tempTree } from './run-cli';

/**
 * `ballast lint` meets whatever a repository holds: it must end with exit 0 or 1 and a valid
 * report, never crash, hang or exit 2 over file contents.
 */
async function lintsCleanly(text: string | Buffer, name = 'input.yaml'): Promise<LintJson> {
  const tree = tempTree({ [name]: text });
  try {
    const { code, stdout, stderr } = await ballast(['lint', '--format', 'json', tree.dir]);
    expect(stderr).toBe('');
    expect([0, 1]).toContain(code);
    const json = JSON.parse(stdout) as LintJson;
    expect(json.summary.files).toBe(1);
    const internal = json.findings.filter((f) => f.message.startsWith('internal error in rule'));
    expect(internal).toEqual([]);
    return json;
  } finally {
    tree.cleanup();
  }
}

/** Billion laughs: 10 keys per level, 30 levels: 10^30 nodes if anything expands the aliases. */
function aliasBomb(levels = 30): { anchors: string; top: string } {
  const lines = ['x-bomb:', '  l0: &l0 {a: lol, b: lol, hostPath: {path: /x}, nfs: {server: s, path: /}}'];
  for (let i = 1; i <= levels; i++) {
    lines.push(`  l${i}: &l${i} {${Array.from({ length: 10 }, (_, k) => `k${k}: *l${i - 1}`).join(', ')}}`);
  }
  lines.push(`  list: &list [${Array.from({ length: 10 }, () => `*l${levels}`).join(', ')}]`);
  return { anchors: lines.join('\n'), top: `l${levels}` };
}

describe('robustness: ballast lint never crashes or hangs', () => {
  test('YAML alias bombs (billion laughs) in every place rules look', async () => {
    const { anchors, top } = aliasBomb();
    const documents = [
      `${anchors}\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: *${top}, annotations: *${top}, labels: *${top}}\nspec: {replicas: 3, strategy: *${top}, template: {metadata: *${top}, spec: *${top}}}`,
      `${anchors}\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec: {template: {spec: {containers: *list, volumes: *list, affinity: *${top}, nodeSelector: *${top}}}, volumeClaimTemplates: *list}`,
      `${anchors}\napiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv, namespace: x, annotations: *${top}}\nspec: *${top}`,
      `${anchors}\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\nspec: *${top}`,
      `${anchors}\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r}\nrules: *list`,
      `${anchors}\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: rb}\nsubjects: *list\nroleRef: *${top}`,
      `${anchors}\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: sc}\nparameters: *${top}\nmountOptions: *list`,
      `${anchors}\napiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nevictionHard: *${top}\nevictionSoft: *${top}`,
      `${anchors}\napiVersion: v1\nkind: List\nitems: *list`,
    ];
    for (const format of ['json', 'text', 'sarif', 'junit']) {
      const tree = tempTree({ 'bomb.yaml': documents.join('\n---\n') });
      try {
        const { code, stdout, stderr } = await ballast(['lint', '--format', format, tree.dir]);
        expect(stderr).toBe('');
        expect([0, 1]).toContain(code);
        expect(stdout.length).toBeLessThan(5_000_000);
        // The List's items are bomb maps without kind or apiVersion: not objects.
        if (format === 'json') expect(JSON.parse(stdout).summary.objects).toBe(8);
      } finally {
        tree.cleanup();
      }
    }
  }, 30000);

  test('20k-deep nesting (flow and block) is a finding, not a stack overflow', async () => {
    const depth = 20000;
    const flowList = await lintsCleanly(`kind: Pod\nspec: ${'['.repeat(depth)}${']'.repeat(depth)}\n`);
    const flowMap = await lintsCleanly(`kind: Pod\nspec: ${'{a: '.repeat(depth)}1${'}'.repeat(depth)}\n`);
    const block = await lintsCleanly(`kind: Pod\nspec:\n  volumes:\n  ${'- '.repeat(depth)}x\n`);
    for (const json of [flowList, flowMap, block]) {
      for (const finding of json.findings) expect(finding.rule).toBe('yaml-syntax-error');
    }
    expect(flowList.findings[0]).toMatchObject({
      rule: 'yaml-syntax-error',
      severity: 'error',
      line: expect.any(Number),
    });
  }, 30000);

  test('a 20 MB line, valid and invalid, with a finding whose line must be located', async () => {
    const big = 'x'.repeat(20 * 1024 * 1024);
    const valid = await lintsCleanly(
      `apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv\n  annotations: {note: "${big}"}\n  namespace: db\nspec: {csi: {driver: d, volumeHandle: h}}\n`,
    );
    expect(valid.findings).toContainEqual(
      expect.objectContaining({ rule: 'persistent-volume-with-namespace', line: 6 }),
    );
    const invalid = await lintsCleanly(`kind: ConfigMap\ndata: [${big}\n`);
    expect(invalid.findings.map((f) => f.rule)).toEqual(['yaml-syntax-error']);
    expect(invalid.findings[0]!.message.length).toBeLessThan(1000);
  }, 60000);

  test('binary files are one finding each', async () => {
    const bytes = Buffer.alloc(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
    const json = await lintsCleanly(bytes, 'image.yaml');
    expect(json.findings).toEqual([
      expect.objectContaining({
        rule: 'yaml-syntax-error',
        severity: 'error',
        line: 1,
        message: expect.stringContaining('binary'),
      }),
    ]);
    await lintsCleanly(Buffer.from([0xff, 0xfe, 0xfd, 0x80, 0x81, 0x0a, 0xc3, 0x28]), 'latin.yaml');
  });

  test.each([
    ['an empty file', ''],
    ['a bare ---', '---'],
    ['only separators and comments', '---\n# nothing\n---\n...\n'],
    ['a scalar document', '42\n'],
    ['a string document', '"just text"\n'],
    ['a list document', '- a\n- b\n'],
    ['null', 'null\n'],
    ['a List whose items is not a list', 'apiVersion: v1\nkind: List\nitems: 5\n'],
    ['a List with scalar items', 'apiVersion: v1\nkind: List\nitems: [1, null, "x"]\n'],
  ])('%s: no objects, no findings, exit 0', async (_, text) => {
    const json = await lintsCleanly(text);
    expect(json.findings).toEqual([]);
  });

  const WRONG_TYPES = [
    'metadata: 5',
    'metadata: {name: 5, namespace: [], annotations: "x", labels: 7}',
    'spec: 5',
    'spec: []',
    'spec: null',
    'spec: {template: 5}',
    'spec: {template: {spec: 5}}',
    'spec: {replicas: "many", strategy: "x", template: {spec: {containers: null, volumes: "x", affinity: 3, nodeSelector: []}}}',
    'spec: {template: {spec: {volumes: [5, null, "x", {name: 3, persistentVolumeClaim: 4, nfs: "x", hostPath: 1}]}}}',
    'spec: {accessModes: ReadWriteMany, storageClassName: 5, volumeName: [], resources: 3, nfs: 1, hostPath: "x", claimRef: "x", nodeAffinity: 5, persistentVolumeReclaimPolicy: 7}',
    'spec: {volumeClaimTemplates: "x", serviceName: 5, template: {spec: {containers: [{volumeMounts: 5, args: 5, command: "x", env: 3}]}}}',
    'rules: 5',
    'rules: [5, {verbs: "x", resources: 4, apiGroups: null}]',
    'subjects: "x"\nroleRef: 5',
    'parameters: 5\nprovisioner: []\nmountOptions: "x"',
    'evictionHard: 5\nevictionSoft: []\nevictionSoftGracePeriod: "x"\nevictionMinimumReclaim: 3',
    'items: 5',
    'kind: 5',
    'apiVersion: 7',
  ];
  const KINDS = [
    ...WORKLOAD_KINDS,
    'PersistentVolume',
    'PersistentVolumeClaim',
    'StorageClass',
    'Role',
    'ClusterRole',
    'RoleBinding',
    'ClusterRoleBinding',
    'Service',
    'Lease',
    'KubeletConfiguration',
    'List',
    'ConfigMap',
  ];

  test('fields of the wrong type on every kind the rules read: no crash, no internal rule error', async () => {
    const documents: string[] = [];
    for (const kind of KINDS) {
      for (const fields of WRONG_TYPES) documents.push(`apiVersion: v1\nkind: ${kind}\n${fields}`);
    }
    const json = await lintsCleanly(documents.join('\n---\n'));
    expect(json.summary.objects).toBeGreaterThan(KINDS.length * (WRONG_TYPES.length - 3));
  });

  test('BOM and CRLF: the same findings on the same lines', async () => {
    const lf =
      'apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv\n  namespace: db\nspec: {csi: {driver: d, volumeHandle: h}}\n';
    const plain = await lintsCleanly(lf);
    const bomCrlf = await lintsCleanly(`\ufeff${lf.replace(/\n/g, '\r\n')}`);
    expect(bomCrlf.findings).toEqual(plain.findings.map((f) => ({ ...f, file: bomCrlf.findings[0]!.file })));
    expect(plain.findings).toContainEqual(
      expect.objectContaining({ rule: 'persistent-volume-with-namespace', line: 5 }),
    );
  });

  test.each([
    [
      'an unterminated quote',
      '[Service]\nExecStart=\nExecStart=/usr/bin/kubelet "--eviction-hard=nodefs.available<5%\n',
    ],
    ['a trailing backslash at the end of the file', '[Service]\nEnvironment="A=1" \\'],
    ['lines without "="', '[Service]\nthis is not a directive\n[Unit\n'],
    [
      'assignments before any section and a binary tail',
      'Environment=X=1\n[Service]\nEnvironment=\u0001\u0002\u0003\n',
    ],
    ['a huge continued line', `[Service]\nEnvironment=${'A=1 \\\n'.repeat(20000)}B=2\n`],
    ['CRLF and BOM', '\ufeff[Service]\r\nEnvironment="KUBELET_EXTRA_ARGS=--eviction-hard=memory.available<1%"\r\n'],
  ])('a broken systemd drop-in (%s) is read as far as systemd would', async (_, text) => {
    const json = await lintsCleanly(text, 'kubelet.service.d/20-eviction.conf');
    expect(json.summary.objects).toBe(1);
  });

  test('stdin: helm template output through `-`', async () => {
    const { code, json } = await lintJson(
      ['-'],
      '---\n# Source: chart/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n',
    );
    expect(code).toBe(0);
    expect(json.summary).toMatchObject({ files: 1, objects: 1 });
  });
});

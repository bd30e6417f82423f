import { ALL_RULES, Rule, parseSystemdDropIn, suppressionAnnotation, validateObjects } from '../../validators';
import { findingsFor, ruleHits } from '../support/findings';

const namespacedVolume = (annotations: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name: 'data', namespace: 'shop', annotations },
  spec: { csi: { driver: 'rbd.csi.ceph.com', volumeHandle: 'data' } },
});

describe('suppression', () => {
  test('an annotation with a justification suppresses the finding, which is still returned and counted', () => {
    const report = validateObjects([
      {
        object: namespacedVolume({
          [suppressionAnnotation('persistent-volume-with-namespace')]: 'imported as-is from vendor chart, OPS-7',
        }),
      },
    ]);
    const finding = report.findings.find((f) => f.rule === 'persistent-volume-with-namespace');
    expect(finding).toMatchObject({ suppressed: true, justification: 'imported as-is from vendor chart, OPS-7' });
    expect(report).toMatchObject({ errors: 0, suppressed: 1 });
  });

  test('an empty justification does not suppress and is itself reported', () => {
    const annotation = suppressionAnnotation('persistent-volume-with-namespace');
    const report = validateObjects([{ object: namespacedVolume({ [annotation]: '  ' }) }]);
    expect(report.errors).toBe(1);
    expect(ruleHits([namespacedVolume({ [annotation]: '' })], 'invalid-suppression')).toEqual([
      {
        kind: 'PersistentVolume',
        name: 'data',
        path: `metadata.annotations[${annotation}]`,
        severity: 'warning',
        suppressed: false,
      },
    ]);
  });

  test('a suppression written without a value (YAML null) or with a non-text value does not suppress and is reported', () => {
    const annotation = suppressionAnnotation('persistent-volume-with-namespace');
    for (const value of [null, true, 5]) {
      const object = namespacedVolume({ [annotation]: value as unknown as string });
      expect(validateObjects([{ object }]).errors).toBe(1);
      expect(ruleHits([object], 'invalid-suppression')).toEqual([
        {
          kind: 'PersistentVolume',
          name: 'data',
          path: `metadata.annotations[${annotation}]`,
          severity: 'warning',
          suppressed: false,
        },
      ]);
    }
  });

  test('a suppression naming an unknown rule is reported', () => {
    const annotation = suppressionAnnotation('persistent-volume-with-namepsace');
    expect(ruleHits([namespacedVolume({ [annotation]: 'typo' })], 'invalid-suppression')).toHaveLength(1);
  });

  test('every rule id fits in an annotation key name (63 characters with "suppress.")', () => {
    for (const rule of ALL_RULES) {
      expect(`suppress.${rule.id}`.length).toBeLessThanOrEqual(63);
      expect(rule.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
  });
});

describe('options', () => {
  test('disabled rules do not run; unknown ids are refused', () => {
    expect(findingsFor([namespacedVolume()], { disabledRules: ['persistent-volume-with-namespace'] })).toEqual([]);
    expect(() => findingsFor([], { disabledRules: ['no-such-rule'] })).toThrow(/unknown rule id\(s\) no-such-rule/);
  });

  test('severity overrides replace the rule severity', () => {
    const report = validateObjects([{ object: namespacedVolume() }], {
      severityOverrides: { 'persistent-volume-with-namespace': 'warning' },
    });
    expect(report).toMatchObject({ errors: 0, warnings: 1 });
  });

  test('a rule only runs on the Kubernetes versions it applies to', () => {
    const seen: string[] = [];
    const versioned: Rule = {
      id: 'versioned',
      severity: 'warning',
      scope: ['ConfigMap'],
      summary: '',
      why: '',
      fix: '',
      kubernetesVersions: { from: '1.28', before: '1.31' },
      check: (context) => {
        seen.push(context.kubernetesVersion.toString());
      },
    };
    for (const version of ['1.27', '1.28', '1.30', '1.31'])
      validateObjects([], { rules: [versioned], kubernetesVersion: version });
    expect(seen).toEqual(['1.28', '1.30']);
  });

  test('an invalid target version is refused', () => {
    expect(() => validateObjects([], { kubernetesVersion: '127' })).toThrow(/invalid Kubernetes version "127"/);
  });
});

describe('robustness', () => {
  const wrongShapes: unknown[] = [
    null,
    5,
    'text',
    [],
    { kind: 5 },
    { kind: 'PersistentVolume', metadata: 5 },
    { kind: 'PersistentVolume', metadata: { annotations: 'x' }, spec: 'x' },
    { kind: 'Deployment', spec: { template: { spec: { containers: null, volumes: 'x' } } } },
    { kind: 'PersistentVolumeClaim', spec: { accessModes: 'ReadWriteMany' } },
    { kind: 'RoleBinding', subjects: 'x', roleRef: [] },
    { kind: 'CronJob', spec: { jobTemplate: { spec: { template: { spec: { volumes: [null, 1, { nfs: 'x' }] } } } } } },
  ];

  test('no rule crashes on fields of the wrong type', () => {
    const report = validateObjects(
      wrongShapes.map((object) => ({ object })),
      { kubernetesVersion: '1.33' },
    );
    expect(report.findings.filter((f) => f.message.startsWith('internal error'))).toEqual([]);
  });

  test('names of Object.prototype members in kinds, flags and variables are plain text, not lookups', () => {
    const inputs = ['toString', 'constructor', 'hasOwnProperty', '__proto__'].flatMap((name) => [
      { kind: name, metadata: { name }, spec: { template: { spec: {} } } },
      {
        kind: 'Pod',
        metadata: { name },
        spec: { containers: [{ name, command: ['kcm', `--leader-elect-resource-lock=${name}`, `--${name}=1`] }] },
      },
      parseSystemdDropIn(
        `[Service]\nEnvironment="${name}=--v=2"\nExecStart=\nExecStart=/usr/bin/kubelet $${name}\n`,
        `20-${name}.conf`,
      ),
    ]);
    expect(() => validateObjects(inputs.map((object) => ({ object })))).not.toThrow();
    const report = validateObjects(inputs.map((object) => ({ object })));
    expect(report.findings.filter((f) => f.message.startsWith('internal error'))).toEqual([]);
    expect(
      report.findings.filter((f) => ['legacy-leader-election-lock', 'kubelet-drop-in-flags-ignored'].includes(f.rule)),
    ).toEqual([]);
  });

  test('a rule that throws is reported as an error finding, not a crash', () => {
    const broken: Rule = {
      id: 'broken',
      severity: 'warning',
      scope: ['*'],
      summary: '',
      why: '',
      fix: '',
      check: () => {
        throw new Error('boom');
      },
    };
    const report = validateObjects([{ object: { kind: 'Pod' } }], { rules: [broken] });
    expect(report.findings).toEqual([
      expect.objectContaining({ rule: 'broken', severity: 'error', message: 'internal error in rule broken: boom' }),
    ]);
  });
});

describe('findings', () => {
  test('carry rule, object, source, path, message and fix, in input order', () => {
    const report = validateObjects([
      { object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'first' } }, source: { file: 'a.yaml', line: 1 } },
      { object: namespacedVolume(), source: { file: 'a.yaml', line: 5 } },
    ]);
    expect(report.findings[0]).toEqual({
      rule: 'persistent-volume-with-namespace',
      severity: 'error',
      message: expect.stringContaining('cluster-scoped'),
      fix: expect.stringContaining('Remove metadata.namespace'),
      object: { apiVersion: 'v1', kind: 'PersistentVolume', namespace: 'shop', name: 'data' },
      source: { file: 'a.yaml', line: 5 },
      path: 'metadata.namespace',
      suppressed: false,
    });
    expect(report.objects).toBe(2);
  });
});

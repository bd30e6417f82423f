import { isSystemdUnitText, parseSystemdDropIn, validateObjects } from '../../../../validators';

describe('parseSystemdDropIn', () => {
  test('reads Environment=, EnvironmentFile= and ExecStart= with their lines, resets and %% escapes', () => {
    const text = [
      '# comment',
      '[Unit]',
      'Description=x',
      '',
      '[Service]',
      'Environment="A=--eviction-hard=nodefs.available<5%%" B=plain',
      'EnvironmentFile=-/etc/default/kubelet',
      'ExecStart=',
      'ExecStart=/usr/bin/kubelet $A \\',
      '  "--quoted arg"',
    ].join('\n');
    const dropIn = parseSystemdDropIn(text, '/etc/systemd/system/kubelet.service.d/20-x.conf');
    expect(dropIn).toMatchObject({
      apiVersion: 'ballast.dev/v1',
      kind: 'SystemdDropIn',
      metadata: { name: '20-x.conf' },
      unit: 'kubelet.service',
      sections: ['Unit', 'Service'],
      service: {
        environment: [
          { line: 6, name: 'A', value: '--eviction-hard=nodefs.available<5%' },
          { line: 6, name: 'B', value: 'plain' },
        ],
        environmentFiles: [{ line: 7, path: '/etc/default/kubelet', optional: true }],
        execStart: [
          { line: 8, reset: true },
          { line: 9, argv: ['/usr/bin/kubelet', '$A', '--quoted arg'] },
        ],
      },
      problems: [],
    });
  });

  test('never throws on broken input, and reports what systemd would ignore', () => {
    for (const text of [
      '',
      '\u0000',
      'garbage',
      '[Service\nExecStart="unterminated',
      '[Service]\nEnvironment==x',
      undefined as unknown as string,
    ]) {
      // The engine turns a rule that throws into an "internal error" finding: none may appear.
      const { findings } = validateObjects([{ object: parseSystemdDropIn(text, 'x.conf') }]);
      expect(findings.filter((finding) => finding.message.startsWith('internal error'))).toEqual([]);
    }
    expect(parseSystemdDropIn('Foo=1\n[Service]\njunk', 'x.conf').problems.map((p) => p.line)).toEqual([1, 3]);
  });

  test('isSystemdUnitText tells a unit drop-in from a KubeletConfiguration drop-in', () => {
    expect(isSystemdUnitText('# x\n[Service]\nExecStart=\n')).toBe(true);
    expect(isSystemdUnitText('apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n')).toBe(false);
  });
});

import { run } from '../../cli/program';
import { ALL_RULES } from '../../validators';

async function ballast(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    out: (t) => {
      stdout += t;
    },
    err: (t) => {
      stderr += t;
    },
  });
  return { code, stdout, stderr };
}

describe('ballast rules / explain', () => {
  test('rules lists every rule with its severity', async () => {
    const { code, stdout } = await ballast('rules');
    expect(code).toBe(0);
    for (const rule of ALL_RULES)
      expect(stdout).toMatch(new RegExp(`^${rule.id}\\s+${rule.severity}${rule.optIn ? '\\*' : ''}\\s`, 'm'));
  });

  test('explain prints why, fix, examples and the suppression annotation', async () => {
    const { code, stdout } = await ballast('explain', 'recycle-reclaim-policy');
    expect(code).toBe(0);
    expect(stdout).toContain('Why:');
    expect(stdout).toContain('Fix:');
    expect(stdout).toContain('persistentVolumeReclaimPolicy: Retain');
    expect(stdout).toContain('ballast.dev/suppress.recycle-reclaim-policy: "<why this object is an exception>"');
  });

  test('an unknown rule or flag is a usage error (exit 2) with a hint, not a stack trace', async () => {
    const unknownRule = await ballast('explain', 'no-such-rule');
    expect(unknownRule).toMatchObject({ code: 2, stdout: '' });
    expect(unknownRule.stderr).toContain('unknown rule "no-such-rule"');
    const unknownFlag = await ballast('--frobnicate');
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toContain("unknown option '--frobnicate'");
  });

  test('--help and --version exit 0', async () => {
    expect((await ballast('--help')).code).toBe(0);
    expect((await ballast('--version')).stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});

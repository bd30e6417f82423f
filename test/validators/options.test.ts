import { BallastOptionsError, DEFAULT_KUBERNETES_VERSION, resolveOptions, ruleParameters } from '../../validators';

const resolve = (input: unknown, env: Record<string, string> = {}, commandLineVersion?: string) =>
  resolveOptions(input, { where: 'test options', env, commandLineVersion });

function problemsOf(input: unknown, env: Record<string, string> = {}): readonly string[] {
  try {
    resolve(input, env);
  } catch (error) {
    expect(error).toBeInstanceOf(BallastOptionsError);
    return (error as BallastOptionsError).problems;
  }
  throw new Error('options were accepted');
}

describe('the one options schema', () => {
  test('no options: every rule at its own severity, the default target', () => {
    expect(resolve(undefined)).toEqual({
      kubernetesVersion: expect.objectContaining({ major: 1, minor: Number(DEFAULT_KUBERNETES_VERSION.split('.')[1]) }),
      kubernetesVersionSource: 'default',
      disabledRules: [],
      enabledRules: [],
      severityOverrides: {},
      parameters: {},
    });
  });

  test('rules switch off (also YAML 1.1 false), on, or to a severity; parameters reach the rule, the defaults listed from its schema', () => {
    const options = resolve({
      rules: {
        'recycle-reclaim-policy': 'off',
        'persistent-volume-with-namespace': false,
        'nfs-volume-without-version': 'error',
        'nfs-soft-mount': true,
      },
      parameters: { 'nfs-volume-without-node-prerequisite': { prerequisiteLabelKeys: ['example.com/nfs'] } },
    });
    expect(options.disabledRules).toEqual(['recycle-reclaim-policy', 'persistent-volume-with-namespace']);
    expect(options.severityOverrides).toEqual({ 'nfs-volume-without-version': 'error' });
    expect(options.parameters).toEqual({
      'nfs-volume-without-node-prerequisite': { prerequisiteLabelKeys: ['example.com/nfs'] },
    });
    expect(ruleParameters('nfs-volume-without-node-prerequisite')).toEqual([
      {
        name: 'prerequisiteLabelKeys',
        description: expect.stringContaining('NFS client is installed'),
        default: ['node.ballast.dev/nfs-client'],
      },
    ]);
  });

  test('every problem at once, each with its field path', () => {
    expect(
      problemsOf({
        kubernetesVersion: 1.3,
        severity: {},
        rules: { nope: 'off', 'recycle-reclaim-policy': 'loud' },
        parameters: {
          'recycle-reclaim-policy': { x: 1 },
          'nfs-volume-without-node-prerequisite': { prerequisiteLabelKeys: [''], other: 1 },
        },
      }),
    ).toEqual([
      'severity: unknown option; known: kubernetesVersion, rules, parameters',
      'kubernetesVersion: Kubernetes version 1.3 is a number: quote it ("1.30", not 1.30, which YAML and JavaScript read as 1.3)',
      'rules.nope: unknown rule id; run `ballast rules` for the list',
      'rules.recycle-reclaim-policy: expected off, on, error or warning',
      'parameters.recycle-reclaim-policy: this rule takes no parameters',
      'parameters.nfs-volume-without-node-prerequisite.prerequisiteLabelKeys.0: a node label key cannot be empty',
      'parameters.nfs-volume-without-node-prerequisite.other: unknown option; known: see `ballast explain`',
    ]);
    expect(problemsOf('1.30')).toEqual(['(options): expected a mapping with kubernetesVersion, rules and parameters']);
    expect(problemsOf({ rules: ['a'] })).toEqual(['rules: expected a mapping of rule id to off, on, error or warning']);
  });

  test('the target: command line, then BALLAST_KUBERNETES_VERSION, then the options, then the default', () => {
    const env = { BALLAST_KUBERNETES_VERSION: '1.31' };
    expect(resolve({ kubernetesVersion: '1.29' }, env, '1.30')).toMatchObject({
      kubernetesVersionSource: 'command line',
    });
    expect(resolve({ kubernetesVersion: '1.29' }, env).kubernetesVersion.toString()).toBe('1.31');
    expect(resolve({ kubernetesVersion: '1.29' }, { BALLAST_KUBERNETES_VERSION: '' })).toMatchObject({
      kubernetesVersionSource: 'configuration',
    });
    expect(problemsOf({}, { BALLAST_KUBERNETES_VERSION: 'v1.31' })).toEqual([
      'BALLAST_KUBERNETES_VERSION: invalid Kubernetes version "v1.31": write it as MAJOR.MINOR, for example "1.31" (no "v", no patch)',
    ]);
  });
});

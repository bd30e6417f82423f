import {
  DEFAULT_KUBERNETES_VERSION,
  KubeVersion,
  NEWEST_KNOWN_KUBERNETES_VERSION,
  targetVersionProblem,
} from '../../validators';

describe('KubeVersion', () => {
  test('compares as versions, not as numbers or strings', () => {
    expect(KubeVersion.parse('1.3').before('1.27')).toBe(true);
    expect(KubeVersion.parse('1.27').atLeast('1.3')).toBe(true);
    expect(KubeVersion.parse('1.31').atLeast('1.31')).toBe(true);
    expect(KubeVersion.parse('1.30').atLeast('1.31')).toBe(false);
  });

  test.each(['1', '1.x', 'latest', '', '1.27-rc', 'v1.30', '1.30.2', ' 1.30', '1.030'])(
    'rejects %p with the expected form',
    (text) => {
      expect(() => KubeVersion.parse(text)).toThrow(/MAJOR\.MINOR/);
    },
  );

  test('a target must be a quoted version the rules know; a number gets the hint to quote it', () => {
    expect(KubeVersion.target('1.30').toString()).toBe('1.30');
    expect(KubeVersion.target(NEWEST_KNOWN_KUBERNETES_VERSION).toString()).toBe(NEWEST_KNOWN_KUBERNETES_VERSION);
    expect(() => KubeVersion.target(1.3)).toThrow('is a number: quote it ("1.30", not 1.30');
    expect(() => KubeVersion.target('1.3')).toThrow('is not one the rules know: use 1.20 to 1.35');
    expect(() => KubeVersion.target('2.0')).toThrow('is not one the rules know');
    expect(() => KubeVersion.target('1.36')).toThrow('is not one the rules know');
    expect(() => KubeVersion.target('v1.30')).toThrow('no "v", no patch');
    expect(targetVersionProblem(undefined)).toMatch('must be a "MAJOR.MINOR" string');
  });

  test('the default target is the newest version the rules know', () => {
    expect(DEFAULT_KUBERNETES_VERSION).toBe(NEWEST_KNOWN_KUBERNETES_VERSION);
    expect(KubeVersion.parse('1.30').nextMinor().toString()).toBe('1.31');
  });
});

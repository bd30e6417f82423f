import { KubeVersion } from '../../validators';

describe('KubeVersion', () => {
  test('compares as versions, not as numbers or strings', () => {
    expect(KubeVersion.parse('1.3').before('1.27')).toBe(true);
    expect(KubeVersion.parse('1.27').atLeast('1.3')).toBe(true);
    expect(KubeVersion.parse('1.31').atLeast('1.31')).toBe(true);
    expect(KubeVersion.parse('1.30').atLeast('1.31')).toBe(false);
  });

  test('accepts v-prefixed and patch versions', () => {
    expect(KubeVersion.parse('v1.29').toString()).toBe('1.29');
    expect(KubeVersion.parse('1.29.4').toString()).toBe('1.29');
  });

  test.each(['1', '1.x', 'latest', '', '1.27-rc'])('rejects %p with the expected form', (text) => {
    expect(() => KubeVersion.parse(text)).toThrow(/MAJOR\.MINOR/);
  });
});

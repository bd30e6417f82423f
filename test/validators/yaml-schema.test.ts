import * as jsYaml from 'js-yaml';
import { KUBERNETES_YAML_SCHEMA } from '../../validators/yaml-schema';

describe('the YAML schema ballast reads manifests with', () => {
  const load = (text: string) => jsYaml.load(text, { schema: KUBERNETES_YAML_SCHEMA }) as Record<string, unknown>;

  test('keeps date-like values as strings, as the Kubernetes API does', () => {
    expect(load('created: 2024-01-01\nat: 2024-01-01T10:00:00Z')).toEqual({
      created: '2024-01-01',
      at: '2024-01-01T10:00:00Z',
    });
  });

  test('still reads core scalars, merge keys and aliases', () => {
    expect(load('base: &b {replicas: 2, paused: false, ratio: 0.5, none: null}\ncopy: {<<: *b, replicas: 3}')).toEqual({
      base: { replicas: 2, paused: false, ratio: 0.5, none: null },
      copy: { replicas: 3, paused: false, ratio: 0.5, none: null },
    });
  });
});

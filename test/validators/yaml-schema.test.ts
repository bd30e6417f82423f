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

  // HomeAssignmentsCollection/k8s-lab-baremetal-architecture calico-install.yaml (held-out-176):
  // Calico selectors left unquoted (`!has(...)`) are YAML local tags; kubectl (`kubectl kustomize`)
  // reads `a: !has(x)` as "" and `b: !foo bar` as "bar", keeping the value and dropping the tag.
  test('reads a local tag as kubectl does: the value without its tag', () => {
    expect(
      load('selector: !has(projectcalico.org/name)\nb: !foo bar\nc: !list [1, 2]\nd: !map {x: 1}\ne: !num 123'),
    ).toEqual({
      selector: '',
      b: 'bar',
      c: [1, 2],
      d: { x: 1 },
      e: '123',
    });
  });

  test('still refuses a global tag it does not know', () => {
    expect(() => load('at: !!timestamp 2024-01-01')).toThrow(/unknown tag/);
  });
});

import { lint } from '../../cli/lint-command';
import { loadManifests } from '../../cli/load-manifests';
import { tempTree } from './run-cli';

describe('ballast lint: an alias written as a key with no space before its colon (`*app:`)', () => {
  // MaximUltimatum/talos-homelab ulthuan/clusters/apps/actual/actual-helm.yaml (held-out-180): a
  // bjw-s app-template HelmRelease keys `controllers` and `containers` by `*app:` under `name: &app
  // actual`. kubectl kustomize reads `*app: yes-value` as `actual: yes-value`; so does ballast.
  test('real world: reads the key as the anchored value, as kubectl does, with no finding', () => {
    const tree = tempTree({
      'actual-helm.yaml': [
        'apiVersion: helm.toolkit.fluxcd.io/v2',
        'kind: HelmRelease',
        'metadata:',
        '  name: &app actual',
        'spec:',
        '  values:',
        '    controllers:',
        '      *app:',
        '        strategy: Recreate',
        '        containers:',
        '          - *app: {}',
        '',
      ].join('\n'),
    });
    try {
      expect(lint([tree.dir], { cwd: tree.dir }).findings).toEqual([]);
      const [loaded] = loadManifests([tree.dir]).objects;
      expect(loaded?.object.spec).toEqual({
        values: { controllers: { actual: { strategy: 'Recreate', containers: [{ actual: {} }] } } },
      });
    } finally {
      tree.cleanup();
    }
  });

  test('an alias to no anchor at all is still refused', () => {
    const tree = tempTree({
      'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  *missing: y\n',
    });
    try {
      expect(lint([tree.dir], { cwd: tree.dir }).findings.map((f) => [f.rule, f.line])).toEqual([
        ['yaml-syntax-error', 5],
      ]);
    } finally {
      tree.cleanup();
    }
  });
});

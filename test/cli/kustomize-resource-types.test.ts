import { lint } from '../../cli/lint-command';
import { tempTree } from './run-cli';

/**
 * asifmhyve/nextcloud prometheus/route.yaml (held-out-454), cut down: an OpenShift Route written
 * without apiVersion and kind, listed in its directory's kustomization.
 */
const UNTYPED_ROUTE = `metadata:
  name: prometheus
spec:
  to:
    kind: Service
    name: prometheus
  tls:
    termination: edge
`;

/** catvec/funkyboy.zone netbox-base/resources/deployment.yaml (held-out-455): the whole file. */
const KIND_ONLY = 'kind: Deployment\n';

const rows = (files: Record<string, string>) => {
  const { dir, cleanup } = tempTree(files);
  try {
    return lint([dir], { cwd: dir })
      .findings.filter((f) => f.rule === 'object-without-type')
      .map((f) => [f.severity, f.file?.slice(dir.length + 1), f.line, f.path, f.object.kind, f.object.name]);
  } finally {
    cleanup();
  }
};

describe('object-without-type on the files a kustomization lists in resources', () => {
  test('real world: a document with neither apiVersion nor kind is refused where a kustomization lists its file (kustomize build: "missing kind in object")', () => {
    expect(
      rows({
        'prometheus/kustomization.yaml': 'resources:\n- route.yaml\n',
        'prometheus/route.yaml': UNTYPED_ROUTE,
      }),
    ).toEqual([['error', 'prometheus/route.yaml', 1, 'kind', null, 'prometheus']]);
  });

  test('real world: a kind alone, with no metadata, is refused as a resource (kustomize build: "missing metadata.name"), through a resource directory', () => {
    expect(
      rows({
        'netbox/kustomization.yaml': 'resources:\n- netbox-base\n',
        'netbox/netbox-base/kustomization.yaml': 'resources:\n- resources/deployment.yaml\n',
        'netbox/netbox-base/resources/deployment.yaml': KIND_ONLY,
      }),
    ).toEqual([['error', 'netbox/netbox-base/resources/deployment.yaml', 1, 'apiVersion', 'Deployment', null]]);
  });

  test('the same documents in files no kustomization lists are other tools’ YAML (Helm values write `kind: Deployment`), and a typed resource passes', () => {
    expect(
      rows({
        'values/route.yaml': UNTYPED_ROUTE,
        'values/deployment.yaml': KIND_ONLY,
        'app/kustomization.yaml': 'resources:\n- cm.yaml\n',
        'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n',
      }),
    ).toEqual([]);
  });

  test('a misspelt apiVersion in a resource is still named, as everywhere else', () => {
    const { dir, cleanup } = tempTree({
      'app/kustomization.yaml': 'resources:\n- cm.yaml\n',
      'app/cm.yaml': 'piVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n',
    });
    try {
      const found = lint([dir], { cwd: dir }).findings.filter((f) => f.rule === 'object-without-type');
      expect(found.map((f) => [f.path, f.message])).toEqual([
        ['apiVersion', expect.stringContaining('the key "piVersion" reads as a misspelt apiVersion')],
      ]);
    } finally {
      cleanup();
    }
  });

  test('a kustomization itself, which has neither apiVersion nor kind, is no resource of its own', () => {
    expect(
      rows({
        'base/kustomization.yaml': 'resources:\n- cm.yaml\n',
        'base/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n',
        'overlay/kustomization.yaml': 'resources:\n- ../base\n',
      }),
    ).toEqual([]);
  });
});

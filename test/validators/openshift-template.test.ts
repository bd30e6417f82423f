import { listedObjects } from '../../validators';

const template = (objects: unknown[], parameters?: unknown[], apiVersion = 'template.openshift.io/v1') => ({
  apiVersion,
  kind: 'Template',
  metadata: { name: 'app' },
  objects,
  ...(parameters ? { parameters } : {}),
});

describe('OpenShift Templates: their objects, as `oc process` renders them with the parameters’ defaults', () => {
  test('each object is listed under `objects`, ${NAME} filled into strings, ${{NAME}} read as JSON', () => {
    const claim = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: '${APP}-data' },
      spec: { storageClassName: '${CLASS}', resources: { requests: { storage: '${SIZE}' } } },
    };
    const deploymentConfig = {
      apiVersion: 'apps.openshift.io/v1',
      kind: 'DeploymentConfig',
      spec: { replicas: '${{REPLICAS}}' },
    };
    const parameters = [
      { name: 'APP', value: 'sonarqube' },
      { name: 'CLASS', value: 'netapp-file-standard' },
      { name: 'REPLICAS', value: '2' },
      { name: 'SIZE', required: true },
      { name: 'SECRET', generate: 'expression', from: '[a-z]{8}' },
    ];
    const listed = listedObjects(template([claim, deploymentConfig], parameters));
    expect(listed.map(({ itemIndexes, listField }) => [itemIndexes, listField])).toEqual([
      [[0], 'objects'],
      [[1], 'objects'],
    ]);
    expect(listed[0]?.object).toEqual({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'sonarqube-data' },
      // A parameter without a value (required from the user, or generated) stays as written.
      spec: { storageClassName: 'netapp-file-standard', resources: { requests: { storage: '${SIZE}' } } },
    });
    expect(listed[1]?.object).toEqual({ ...deploymentConfig, spec: { replicas: 2 } });
  });

  test('OpenShift 3 templates (apiVersion v1) too; a kind Template of another API is an object of its own', () => {
    const object = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } };
    expect(listedObjects(template([object], undefined, 'v1'))).toEqual([
      { object, itemIndexes: [0], listField: 'objects' },
    ]);
    const other = { ...template([object]), apiVersion: 'example.com/v1' };
    expect(listedObjects(other)).toEqual([{ object: other, itemIndexes: [] }]);
  });

  // debianmaster/openshift-examples cloudforms-on-openshift/template.yaml (held-out-24): an
  // `oc get -o yaml` List of live objects that holds the Template they were made from, too.
  test('real world: a Template inside a List is a stored object, not processed', () => {
    const stored = template([{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'httpd' } }]);
    const list = {
      apiVersion: 'v1',
      kind: 'List',
      items: [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'httpd' } }, stored],
    };
    expect(listedObjects(list).map(({ object }) => object.kind)).toEqual(['Service', 'Template']);
  });

  test('an object YAML aliases many times is rendered once: an alias bomb stays small', () => {
    let node: unknown = { apiVersion: 'v1', kind: 'ConfigMap', data: { a: '${X}' } };
    for (let level = 0; level < 40; level++) node = { left: node, right: node };
    const listed = listedObjects(
      template([{ apiVersion: 'v1', kind: 'ConfigMap', data: node }], [{ name: 'X', value: 'y' }]),
    );
    let rendered = listed[0]?.object.data as { left: unknown; right: unknown };
    for (let level = 0; level < 40; level++) {
      expect(rendered.left).toBe(rendered.right);
      rendered = rendered.left as { left: unknown; right: unknown };
    }
  });
});

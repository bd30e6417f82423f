import * as fs from 'fs';
import * as path from 'path';
import { ballast, lintJson, tempTree } from './run-cli';

// OpenShiftDemos/sonarqube-openshift-docker sonarqube-template.yaml (held-out-24), shortened: a
// Template whose DeploymentConfig rolls (maxSurge 25%) on a ReadWriteOnce claim of the default class.
const TEMPLATE = `apiVersion: template.openshift.io/v1
kind: Template
metadata:
  name: sonarqube
objects:
- apiVersion: v1
  kind: DeploymentConfig
  metadata:
    name: \${APP}
  spec:
    replicas: 1
    strategy:
      resources: {}
      rollingParams:
        maxSurge: 25%
        timeoutSeconds: 600
      type: Rolling
    template:
      spec:
        containers:
        - name: sonarqube
          image: sonarqube:\${VERSION}
          resources:
            limits:
              memory: \${MAX_MEMORY}
          volumeMounts: [{name: data, mountPath: /opt/sonarqube/data}]
        volumes:
        - name: data
          persistentVolumeClaim:
            claimName: \${APP}-data
- apiVersion: v1
  kind: PersistentVolumeClaim
  metadata:
    name: \${APP}-data
  spec:
    accessModes:
    - ReadWriteOnce
    resources:
      requests:
        storage: \${CAPACITY}
parameters:
- name: APP
  value: sonarqube
- name: VERSION
  value: "6.7"
- name: MAX_MEMORY
  value: 2Gi
- name: CAPACITY
  value: 1Gi
`;

describe('OpenShift Templates in ballast lint and fix', () => {
  test('real world: the rendered objects are judged, the finding points into `objects`, and fix leaves the parameters as they are', async () => {
    const tree = tempTree({ 'openshift/sonarqube-template.yaml': TEMPLATE });
    const file = path.join(tree.dir, 'openshift/sonarqube-template.yaml');
    try {
      const linted = await lintJson([tree.dir]);
      expect(linted.code).toBe(1);
      expect(linted.json.findings.map((f) => [f.rule, f.object.kind, f.object.name, f.path, f.line])).toEqual([
        [
          'rwo-claim-in-rolling-deployment',
          'DeploymentConfig',
          'sonarqube',
          'spec.template.spec.volumes[0].persistentVolumeClaim',
          29,
        ],
      ]);
      expect((await ballast(['fix', tree.dir])).code).toBe(0);
      const fixed = fs.readFileSync(file, 'utf8');
      expect(fixed).toBe(
        TEMPLATE.replace('      rollingParams:\n        maxSurge: 25%\n        timeoutSeconds: 600\n', '').replace(
          'type: Rolling',
          'type: Recreate',
        ),
      );
      expect((await ballast(['fix', tree.dir])).code).toBe(0);
      expect(fs.readFileSync(file, 'utf8')).toBe(fixed);
    } finally {
      tree.cleanup();
    }
  });
});

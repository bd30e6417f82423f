import { lint } from '../../cli/lint-command';
import { tempTree } from './run-cli';

/**
 * bobo-bc/k3s argo/apps/media/sonarr (held-out-18), cut down: the Deployment names no namespace, its
 * Longhorn claim says `media`, and the kustomization that lists both sets `namespace: media`.
 */
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: sonarr
spec:
  replicas: 1
  selector: {matchLabels: {app: sonarr}}
  template:
    metadata: {labels: {app: sonarr}}
    spec:
      containers: [{name: sonarr, image: lscr.io/linuxserver/sonarr:latest, volumeMounts: [{name: config, mountPath: /config}]}]
      volumes:
      - name: config
        persistentVolumeClaim:
          claimName: sonarr-config
`;
const CLAIM = `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: sonarr-config
  namespace: media
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 2Gi}}
  storageClassName: longhorn
`;

const rows = (dir: string) =>
  lint([dir], { cwd: dir })
    .findings.filter((f) => f.rule === 'rwo-claim-in-rolling-deployment')
    .map((f) => [f.severity, f.object.namespace, f.path]);

describe('the namespace a kustomization gives the objects of its resources', () => {
  test('real world: a Deployment without a namespace finds its claim in the namespace kustomize gives it', () => {
    const { dir, cleanup } = tempTree({
      'media/sonarr/kustomization.yaml': 'namespace: media\nresources:\n  - deployment.yaml\n  - pvc.yaml\n',
      'media/sonarr/deployment.yaml': DEPLOYMENT,
      'media/sonarr/pvc.yaml': CLAIM,
    });
    try {
      expect(rows(dir)).toEqual([['error', 'media', 'spec.template.spec.volumes[0].persistentVolumeClaim']]);
    } finally {
      cleanup();
    }
  });

  test('through a resource directory, with the outer namespace winning over the inner one and the object’s own; without a kustomization the Deployment keeps no namespace and finds the claim by name', () => {
    const nested = tempTree({
      'apps/kustomization.yaml': 'namespace: shows\nresources: [sonarr]\n',
      'apps/sonarr/kustomization.yaml': 'namespace: other\nresources: [deployment.yaml, pvc.yaml]\n',
      'apps/sonarr/deployment.yaml': DEPLOYMENT,
      'apps/sonarr/pvc.yaml': CLAIM,
    });
    const plain = tempTree({ 'deployment.yaml': DEPLOYMENT, 'pvc.yaml': CLAIM });
    try {
      expect(rows(nested.dir)).toEqual([['error', 'shows', 'spec.template.spec.volumes[0].persistentVolumeClaim']]);
      expect(rows(plain.dir)).toEqual([['error', null, 'spec.template.spec.volumes[0].persistentVolumeClaim']]);
    } finally {
      nested.cleanup();
      plain.cleanup();
    }
  });
});

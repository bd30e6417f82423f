import * as path from 'path';
import { localDistributionOfPath } from '../../validators/local-cluster-path';

describe('localDistributionOfPath', () => {
  test('reads the nearest directory named for a single-machine distribution, and its node-local default', () => {
    expect(localDistributionOfPath('/src/krocky5+homelab-k3s/services/vault/deployment.yaml')).toEqual({
      name: 'k3s',
      defaultClass: 'local-path',
    });
    expect(localDistributionOfPath('/src/labs/kind/07/pvc.yaml')).toEqual({ name: 'kind', defaultClass: 'standard' });
    expect(localDistributionOfPath('/src/setup/docker-desktop/db.yaml')).toEqual({
      name: 'docker-desktop',
      defaultClass: 'hostpath',
    });
    expect(localDistributionOfPath('/src/k3s/overlays/minikube/db.yaml')?.name).toBe('minikube');
  });

  test('only whole words of directory names count, not the file name, and no file means no answer', () => {
    expect(localDistributionOfPath('/src/kindle-sync/deploy/db.yaml')).toBeUndefined();
    expect(localDistributionOfPath('/src/apps/k3s.yaml')).toBeUndefined();
    expect(localDistributionOfPath(undefined)).toBeUndefined();
  });

  test('the same answer for a relative path and the absolute one it stands for', () => {
    const relative = path.join('homelab-k3s', 'apps', 'db.yaml');
    expect(localDistributionOfPath(relative)).toEqual(localDistributionOfPath(path.resolve(relative)));
    expect(localDistributionOfPath(relative)?.name).toBe('k3s');
  });
});

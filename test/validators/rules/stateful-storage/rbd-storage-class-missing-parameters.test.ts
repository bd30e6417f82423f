import { ruleHits } from '../../../support/findings';
import { CEPH_CSI_PARAMETERS, storageClass } from './fixtures';

const RULE = 'rbd-storage-class-missing-parameters';
const hit = (path: string, name = 'ceph-rbd') => ({
  kind: 'StorageClass',
  name,
  path,
  severity: 'error',
  suppressed: false,
});

describe(RULE, () => {
  test('lists every missing ceph-csi parameter, not only the first', () => {
    expect(
      ruleHits(
        [
          storageClass('ceph-rbd', 'rbd.csi.ceph.com', {
            clusterID: 'rook-ceph',
            'csi.storage.k8s.io/node-stage-secret-name': 'n',
          }),
        ],
        RULE,
      ),
    ).toEqual([
      hit('parameters.pool'),
      hit('parameters[csi.storage.k8s.io/node-stage-secret-namespace]'),
      hit('parameters[csi.storage.k8s.io/provisioner-secret-name]'),
      hit('parameters[csi.storage.k8s.io/provisioner-secret-namespace]'),
    ]);
  });

  test('requires the controller-expand secret when expansion is allowed', () => {
    expect(
      ruleHits(
        [storageClass('ceph-rbd', 'rbd.csi.ceph.com', CEPH_CSI_PARAMETERS, { allowVolumeExpansion: true })],
        RULE,
      ),
    ).toEqual([
      hit('parameters[csi.storage.k8s.io/controller-expand-secret-name]'),
      hit('parameters[csi.storage.k8s.io/controller-expand-secret-namespace]'),
    ]);
  });

  test('checks an operator-prefixed driver and the in-tree provisioner, and treats empty values as missing', () => {
    expect(
      ruleHits(
        [
          storageClass('rook', 'rook-ceph.rbd.csi.ceph.com', { ...CEPH_CSI_PARAMETERS, clusterID: ' ' }),
          storageClass('slow', 'kubernetes.io/rbd', { monitors: '10.0.0.1:6789', adminSecretName: 'admin' }),
        ],
        RULE,
      ),
    ).toEqual([hit('parameters.clusterID', 'rook'), hit('parameters.userSecretName', 'slow')]);
  });

  test('passes a complete class, topologyConstrainedPools instead of pool, and other provisioners', () => {
    const { pool: _pool, ...withoutPool } = CEPH_CSI_PARAMETERS;
    expect(
      ruleHits(
        [
          storageClass('ceph-rbd', 'rbd.csi.ceph.com', CEPH_CSI_PARAMETERS),
          storageClass('topology', 'rbd.csi.ceph.com', {
            ...withoutPool,
            topologyConstrainedPools: '[{"poolName":"a"}]',
          }),
          storageClass('cephfs', 'cephfs.csi.ceph.com'),
          {
            apiVersion: 'storage.k8s.io/v1',
            kind: 'StorageClass',
            metadata: { name: 'odd' },
            provisioner: 'rbd.csi.ceph.com',
            parameters: 'x',
            allowVolumeExpansion: 'yes',
          },
        ],
        RULE,
      ).filter((h) => h.name !== 'odd'),
    ).toEqual([]);
  });
});

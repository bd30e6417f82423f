import { ruleHits } from '../../../support/findings';
import { podSpec, storageClass, volume, workload } from './fixtures';

const RULE = 'in-tree-ceph-volume';
const objects = [
  volume('data', { accessModes: ['ReadWriteOnce'], rbd: { monitors: ['10.0.0.1:6789'], image: 'data' } }),
  workload('Deployment', 'web', podSpec([{ name: 'files', cephfs: { monitors: ['10.0.0.1:6789'] } }])),
  storageClass('slow', 'kubernetes.io/rbd', { monitors: 'm', adminSecretName: 'a', userSecretName: 'u' }),
];
const hits = (severity: string) => [
  { kind: 'PersistentVolume', name: 'data', path: 'spec.rbd', severity, suppressed: false },
  { kind: 'Deployment', name: 'web', path: 'spec.template.spec.volumes[0].cephfs', severity, suppressed: false },
  { kind: 'StorageClass', name: 'slow', path: 'provisioner', severity, suppressed: false },
];

describe(RULE, () => {
  test.each(['1.28', '1.30'])('warns on %s, where the in-tree plugins are deprecated', (version) => {
    expect(ruleHits(objects, RULE, { kubernetesVersion: version })).toEqual(hits('warning'));
  });

  test.each(['1.31', '1.33'])('is an error on %s, where they are removed', (version) => {
    expect(ruleHits(objects, RULE, { kubernetesVersion: version })).toEqual(hits('error'));
  });

  test('says nothing before 1.28, and nothing about ceph-csi', () => {
    expect(ruleHits(objects, RULE, { kubernetesVersion: '1.27' })).toEqual([]);
    const csi = [
      volume('data', { accessModes: ['ReadWriteOnce'], csi: { driver: 'rbd.csi.ceph.com', volumeHandle: 'x' } }),
      storageClass('ceph-rbd', 'rbd.csi.ceph.com'),
    ];
    expect(ruleHits(csi, RULE, { kubernetesVersion: '1.31' })).toEqual([]);
  });
});

import { findingsFor, ruleHits } from '../../../support/findings';
import { claim, claimVolume, podSpec, storageClass, volume, workload } from './fixtures';

const RULE = 'in-tree-ceph-volume';

// kubecto/k8s-ceph rbd/: a Pod on claim rbd-claim of StorageClass fast-rbd (provisioner ceph.com/rbd).
const fastRbd = storageClass('fast-rbd', 'ceph.com/rbd', {
  monitors: '10.102.28.50:6789, 10.102.28.51:6789, 10.102.28.52:6789',
  adminId: 'admin',
  adminSecretName: 'ceph-secret',
  adminSecretNamespace: 'kube-system',
  pool: 'kube',
});
const rbdClaim = claim('rbd-claim', { accessModes: ['ReadWriteOnce'], storageClassName: 'fast-rbd' });
const nginxPod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'nginx-pod1' },
  spec: {
    containers: [{ name: 'nginx-pod1', image: 'nginx:1.14', volumeMounts: [{ name: 'cephrbd', mountPath: '/data' }] }],
    volumes: [{ name: 'cephrbd', persistentVolumeClaim: { claimName: 'rbd-claim' } }],
  },
};

describe(`${RULE}: the workloads that mount in-tree Ceph volumes get a warning pointing at the error`, () => {
  test('real world: a Pod on a claim of a ceph.com/rbd class; the class is the error', () => {
    expect(ruleHits([fastRbd, rbdClaim, nginxPod], RULE, { kubernetesVersion: '1.31' })).toEqual([
      { kind: 'StorageClass', name: 'fast-rbd', path: 'provisioner', severity: 'error', suppressed: false },
      {
        kind: 'Pod',
        name: 'nginx-pod1',
        path: 'spec.volumes[0].persistentVolumeClaim',
        severity: 'warning',
        suppressed: false,
      },
    ]);
    const pointer = findingsFor([fastRbd, rbdClaim, nginxPod], { kubernetesVersion: '1.30' }).find(
      (f) => f.rule === RULE && f.object.kind === 'Pod',
    );
    expect(pointer?.message).toContain('stops mounting when the cluster is upgraded past 1.30');
  });

  test('a Deployment on a claim bound to an in-tree rbd PersistentVolume (by class, as the PV controller binds)', () => {
    const objects = [
      volume('rbd-pv', {
        storageClassName: 'manual',
        accessModes: ['ReadWriteOnce'],
        rbd: { monitors: ['10.0.0.1:6789'], pool: 'kube', image: 'data' },
      }),
      claim('data', { accessModes: ['ReadWriteOnce'], storageClassName: 'manual' }),
      workload('Deployment', 'filemanager', podSpec([claimVolume('data')]), { strategy: { type: 'Recreate' } }),
    ];
    expect(ruleHits(objects, RULE, { kubernetesVersion: '1.31' }).map((hit) => [hit.kind, hit.severity])).toEqual([
      ['PersistentVolume', 'error'],
      ['Deployment', 'warning'],
    ]);
  });

  test('a StatefulSet whose claim templates ask an in-tree class; none for a ceph-csi class', () => {
    const statefulSet = (className: string) =>
      workload('StatefulSet', 'mysql', podSpec([]), {
        serviceName: 'mysql',
        volumeClaimTemplates: [
          { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: className } },
        ],
      });
    expect(
      ruleHits([storageClass('hdd', 'kubernetes.io/rbd'), statefulSet('hdd')], RULE, { kubernetesVersion: '1.31' }),
    ).toContainEqual({
      kind: 'StatefulSet',
      name: 'mysql',
      path: 'spec.volumeClaimTemplates[0].spec',
      severity: 'warning',
      suppressed: false,
    });
    expect(
      ruleHits([storageClass('ceph-rbd', 'rbd.csi.ceph.com'), statefulSet('ceph-rbd')], RULE, {
        kubernetesVersion: '1.31',
      }),
    ).toEqual([]);
  });

  // Old StatefulSet examples name the class of their claim templates by the beta annotation, which
  // the PV controller reads ahead of storageClassName.
  test('a claim template that names an in-tree class by the beta annotation', () => {
    const statefulSet = workload('StatefulSet', 'mysql', podSpec([]), {
      serviceName: 'mysql',
      volumeClaimTemplates: [
        {
          metadata: { name: 'data', annotations: { 'volume.beta.kubernetes.io/storage-class': 'hdd' } },
          spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'ceph-rbd' },
        },
      ],
    });
    const classes = [storageClass('hdd', 'kubernetes.io/rbd'), storageClass('ceph-rbd', 'rbd.csi.ceph.com')];
    expect(ruleHits([...classes, statefulSet], RULE, { kubernetesVersion: '1.31' })).toContainEqual({
      kind: 'StatefulSet',
      name: 'mysql',
      path: 'spec.volumeClaimTemplates[0].spec',
      severity: 'warning',
      suppressed: false,
    });
  });
});

import { findingsFor, ruleHits } from '../../support/findings';

const storageClass = (name: string, provisioner: string) => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name },
  provisioner,
});
const claim = (className: string) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'apps' },
  spec: { storageClassName: className, accessModes: ['ReadWriteMany'], resources: { requests: { storage: '1Gi' } } },
});
const pod = (nodeSelector?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'app', namespace: 'apps' },
  spec: {
    ...(nodeSelector ? { nodeSelector } : {}),
    containers: [{ name: 'app', image: 'busybox' }],
    volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
  },
});

describe('provisioners that create in-tree volumes', () => {
  test.each([
    'k8s-sigs.io/nfs-subdir-external-provisioner',
    'cluster.local/nfs-subdir-external-provisioner',
    'fuseim.pri/ifs',
  ])(
    'a pod using a claim of %s (in-tree NFS volumes) without the NFS-client node label: a warning at the claim volume',
    (provisioner) => {
      expect(
        ruleHits(
          [storageClass('nfs-client', provisioner), claim('nfs-client'), pod()],
          'nfs-volume-without-node-prerequisite',
        ),
      ).toEqual([
        expect.objectContaining({ kind: 'Pod', severity: 'warning', path: 'spec.volumes[0].persistentVolumeClaim' }),
      ]);
    },
  );

  test('the same pod on nodes labelled for the NFS client, or a csi-driver-nfs class: no finding', () => {
    const labelled = pod({ 'node.ballast.dev/nfs-client': 'installed' });
    expect(
      ruleHits(
        [storageClass('nfs-client', 'k8s-sigs.io/nfs-subdir-external-provisioner'), claim('nfs-client'), labelled],
        'nfs-volume-without-node-prerequisite',
      ),
    ).toEqual([]);
    expect(
      ruleHits(
        [storageClass('nfs-csi', 'nfs.csi.k8s.io'), claim('nfs-csi'), pod()],
        'nfs-volume-without-node-prerequisite',
      ),
    ).toEqual([]);
  });

  test('ceph.com/rbd (external-storage rbd-provisioner) creates in-tree rbd volumes: refused from 1.31 like kubernetes.io/rbd', () => {
    expect(
      ruleHits([storageClass('rbd', 'ceph.com/rbd')], 'in-tree-ceph-volume', { kubernetesVersion: '1.31' }),
    ).toEqual([expect.objectContaining({ kind: 'StorageClass', severity: 'error', path: 'provisioner' })]);
    expect(
      ruleHits([storageClass('rbd', 'ceph.com/rbd')], 'in-tree-ceph-volume', { kubernetesVersion: '1.30' }),
    ).toEqual([expect.objectContaining({ severity: 'warning', path: 'provisioner' })]);
    expect(
      ruleHits([storageClass('rbd', 'rbd.csi.ceph.com')], 'in-tree-ceph-volume', { kubernetesVersion: '1.31' }),
    ).toEqual([]);
  });

  // kubernetes-retired/external-storage ceph/cephfs/example/class.yaml, as it is there.
  const cephfsExampleClass = {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'cephfs' },
    provisioner: 'ceph.com/cephfs',
    parameters: {
      monitors: '172.24.0.6:6789',
      adminId: 'admin',
      adminSecretName: 'ceph-secret-admin',
      adminSecretNamespace: 'kube-system',
      claimRoot: '/pvc-volumes',
    },
  };

  test('ceph.com/cephfs (external-storage cephfs-provisioner) creates in-tree cephfs volumes: refused from 1.31, pointing at cephfs.csi.ceph.com', () => {
    expect(ruleHits([cephfsExampleClass], 'in-tree-ceph-volume', { kubernetesVersion: '1.31' })).toEqual([
      expect.objectContaining({ kind: 'StorageClass', severity: 'error', path: 'provisioner' }),
    ]);
    expect(findingsFor([cephfsExampleClass], { kubernetesVersion: '1.31' })[0]?.message).toContain(
      'in-tree cephfs volumes (use cephfs.csi.ceph.com)',
    );
    expect(ruleHits([cephfsExampleClass], 'in-tree-ceph-volume', { kubernetesVersion: '1.30' })).toEqual([
      expect.objectContaining({ severity: 'warning', path: 'provisioner' }),
    ]);
    expect(
      ruleHits([storageClass('cephfs', 'cephfs.csi.ceph.com')], 'in-tree-ceph-volume', { kubernetesVersion: '1.31' }),
    ).toEqual([]);
  });

  // rootfs/cephfs-provisioner class.yaml (held-out-90): the provisioner's name before it became ceph.com/cephfs.
  test('real world: kubernetes.io/cephfs, the early name of the external cephfs provisioner, is judged like ceph.com/cephfs', () => {
    const early = { ...cephfsExampleClass, provisioner: 'kubernetes.io/cephfs' };
    expect(ruleHits([early], 'in-tree-ceph-volume', { kubernetesVersion: '1.31' })).toEqual([
      expect.objectContaining({ kind: 'StorageClass', severity: 'error', path: 'provisioner' }),
    ]);
  });
});

import { App, Chart, Testing } from 'cdk8s';
import { BallastGate, BallastPropError, CephRbdStorageClass, CephRbdStorageClassProps } from '../../constructs';
import { findingsFor } from '../support/findings';
import { schemaErrors } from '../support/schema';

const REQUIRED: CephRbdStorageClassProps = {
  clusterId: 'rook-ceph',
  pool: 'replicapool',
  provisionerSecret: { name: 'csi-rbd-provisioner', namespace: 'ceph-csi' },
  nodeStageSecret: { name: 'csi-rbd-node', namespace: 'ceph-csi' },
};

function synthClass(props: Partial<CephRbdStorageClassProps> = {}) {
  const app = new App();
  new BallastGate(app, { log: () => undefined });
  const chart = new Chart(app, 'storage', { disableResourceNameHashes: true });
  new CephRbdStorageClass(chart, 'rbd', { ...REQUIRED, ...props });
  return Testing.synth(chart);
}

describe('CephRbdStorageClass', () => {
  test('defaults to the safe choices: Retain, expandable, WaitForFirstConsumer, ext4, layering, expand secret = provisioner secret', () => {
    const [storageClass] = synthClass();
    expect(storageClass).toEqual({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: expect.stringMatching(/^storage-rbd-[0-9a-f]{8}$/) },
      provisioner: 'rbd.csi.ceph.com',
      reclaimPolicy: 'Retain',
      allowVolumeExpansion: true,
      volumeBindingMode: 'WaitForFirstConsumer',
      parameters: {
        clusterID: 'rook-ceph',
        pool: 'replicapool',
        imageFeatures: 'layering',
        'csi.storage.k8s.io/fstype': 'ext4',
        'csi.storage.k8s.io/provisioner-secret-name': 'csi-rbd-provisioner',
        'csi.storage.k8s.io/provisioner-secret-namespace': 'ceph-csi',
        'csi.storage.k8s.io/controller-expand-secret-name': 'csi-rbd-provisioner',
        'csi.storage.k8s.io/controller-expand-secret-namespace': 'ceph-csi',
        'csi.storage.k8s.io/node-stage-secret-name': 'csi-rbd-node',
        'csi.storage.k8s.io/node-stage-secret-namespace': 'ceph-csi',
      },
    });
    expect(schemaErrors(storageClass)).toEqual([]);
  });

  test('its output passes every ballast rule, including the parameter check', () => {
    expect(findingsFor(synthClass({ driverName: 'rook-ceph.rbd.csi.ceph.com' }))).toEqual([]);
  });

  test('takes name, fstype, features, reclaim policy, Rook driver name and mount options', () => {
    const [storageClass] = synthClass({
      name: 'fast-rbd',
      fsType: 'xfs',
      imageFeatures: ['layering', 'exclusive-lock', 'object-map', 'fast-diff'],
      reclaimPolicy: 'Delete',
      driverName: 'rook-ceph.rbd.csi.ceph.com',
      mountOptions: ['discard'],
      controllerExpandSecret: { name: 'csi-rbd-expand', namespace: 'ceph-csi' },
    });
    expect(storageClass).toMatchObject({
      metadata: { name: 'fast-rbd' },
      provisioner: 'rook-ceph.rbd.csi.ceph.com',
      reclaimPolicy: 'Delete',
      mountOptions: ['discard'],
      parameters: {
        'csi.storage.k8s.io/fstype': 'xfs',
        imageFeatures: 'layering,exclusive-lock,object-map,fast-diff',
        'csi.storage.k8s.io/controller-expand-secret-name': 'csi-rbd-expand',
      },
    });
  });

  test.each([
    [{ clusterId: ' ' }, /invalid clusterId/],
    [{ pool: '' }, /invalid pool/],
    [{ provisionerSecret: { name: 'Bad_Name', namespace: 'ceph-csi' } }, /invalid provisionerSecret\.name "Bad_Name"/],
    [{ nodeStageSecret: { name: 'ok', namespace: 'not.a.label' } }, /invalid nodeStageSecret\.namespace/],
    [{ imageFeatures: ['layering', 'object-map'] as const }, /Ceph refuses object-map without exclusive-lock/],
    [{ imageFeatures: [] }, /invalid imageFeatures/],
    [{ driverName: 'cephfs.csi.ceph.com' }, /invalid driverName/],
    [{ name: 'Ceph RBD' }, /invalid name/],
  ])('refuses bad props at construction: %j', (props, message) => {
    expect(() => synthClass(props as Partial<CephRbdStorageClassProps>)).toThrow(BallastPropError);
    expect(() => synthClass(props as Partial<CephRbdStorageClassProps>)).toThrow(message);
  });
});

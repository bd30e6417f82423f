import { ruleHits } from '../../../support/findings';

const volume = (spec: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name: 'shared' },
  spec: {
    capacity: { storage: '10Gi' },
    accessModes: ['ReadWriteMany'],
    nfs: { server: 'nfs.example.com', path: '/exports' },
    ...spec,
  },
});
const storageClass = (extra: Record<string, unknown>) => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'nfs-csi' },
  provisioner: 'nfs.csi.k8s.io',
  parameters: { server: 'nfs.example.com', share: '/exports' },
  ...extra,
});

describe('nfs-soft-mount', () => {
  const RULE = 'nfs-soft-mount';

  test('warns on soft in a PV, in a combined -o style entry, on an NFS StorageClass and an inline csi volume', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'app' },
      spec: {
        containers: [],
        volumes: [
          {
            name: 'data',
            csi: {
              driver: 'nfs.csi.k8s.io',
              volumeAttributes: { server: 's', share: '/', mountOptions: 'nfsvers=4.1,soft' },
            },
          },
        ],
      },
    };
    expect(
      ruleHits(
        [
          volume({ mountOptions: ['nfsvers=4.1', 'soft'] }),
          volume({ mountOptions: ['nfsvers=4.1,soft,timeo=30'] }),
          storageClass({ mountOptions: ['soft'] }),
          pod,
        ],
        RULE,
      ),
    ).toEqual([
      {
        kind: 'PersistentVolume',
        name: 'shared',
        path: 'spec.mountOptions[1]',
        severity: 'warning',
        suppressed: false,
      },
      {
        kind: 'PersistentVolume',
        name: 'shared',
        path: 'spec.mountOptions[0]',
        severity: 'warning',
        suppressed: false,
      },
      { kind: 'StorageClass', name: 'nfs-csi', path: 'mountOptions[0]', severity: 'warning', suppressed: false },
      {
        kind: 'Pod',
        name: 'app',
        path: 'spec.volumes[0].csi.volumeAttributes.mountOptions',
        severity: 'warning',
        suppressed: false,
      },
    ]);
  });

  test('passes hard, no option, soft overridden by a later hard, softreval, and non-NFS volumes', () => {
    expect(
      ruleHits(
        [
          volume({ mountOptions: ['hard', 'nfsvers=4.1'] }),
          volume({}),
          volume({ mountOptions: ['soft', 'hard'] }),
          volume({ mountOptions: ['softreval'] }),
          volume({ nfs: undefined, csi: { driver: 'rbd.csi.ceph.com', volumeHandle: 'x' }, mountOptions: ['soft'] }),
          { ...storageClass({ mountOptions: ['soft'] }), provisioner: 'rbd.csi.ceph.com' },
        ],
        RULE,
      ),
    ).toEqual([]);
  });
});

describe('nfs-volume-without-version', () => {
  const RULE = 'nfs-volume-without-version';

  test('warns on an in-tree or csi-driver-nfs PV without nfsvers=/vers=', () => {
    expect(
      ruleHits(
        [
          volume({ mountOptions: ['hard'] }),
          volume({}),
          volume({ nfs: undefined, csi: { driver: 'nfs.csi.k8s.io', volumeHandle: 'x' } }),
        ],
        RULE,
      ),
    ).toEqual([
      { kind: 'PersistentVolume', name: 'shared', path: 'spec.mountOptions', severity: 'warning', suppressed: false },
      { kind: 'PersistentVolume', name: 'shared', path: 'spec', severity: 'warning', suppressed: false },
      { kind: 'PersistentVolume', name: 'shared', path: 'spec', severity: 'warning', suppressed: false },
    ]);
  });

  test('passes nfsvers=, vers= and a combined entry, and ignores other volume types', () => {
    expect(
      ruleHits(
        [
          volume({ mountOptions: ['nfsvers=4.1'] }),
          volume({ mountOptions: ['vers=3'] }),
          volume({ mountOptions: ['hard,nfsvers=4.2'] }),
          volume({ nfs: undefined, hostPath: { path: '/data' } }),
        ],
        RULE,
      ),
    ).toEqual([]);
  });
});

describe('nfs-csi-storage-class-incomplete', () => {
  const RULE = 'nfs-csi-storage-class-incomplete';

  test('refuses a csi-driver-nfs class without server or share, one finding each', () => {
    expect(ruleHits([storageClass({ parameters: { server: ' ' } })], RULE)).toEqual([
      { kind: 'StorageClass', name: 'nfs-csi', path: 'parameters.server', severity: 'error', suppressed: false },
      { kind: 'StorageClass', name: 'nfs-csi', path: 'parameters.share', severity: 'error', suppressed: false },
    ]);
    expect(ruleHits([storageClass({ parameters: undefined })], RULE)).toHaveLength(2);
  });

  // pindaroli/k8s-lab storage/storage-classes.yaml (held-out-176): class nfs-csi names no server or
  // share, and every claim of it binds a csi-driver-nfs PersistentVolume written by hand (volumeName).
  describe('real world: a class that only labels volumes written by hand', () => {
    // The file's volume, as csi-driver-nfs's instead of in-tree nfs, of class nfs-csi.
    const staticVolume = volume({
      storageClassName: 'nfs-csi',
      nfs: undefined,
      csi: { driver: 'nfs.csi.k8s.io', volumeHandle: 'media', volumeAttributes: { server: 'nas', share: '/media' } },
    });
    const claimOf = (spec: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'media' },
      spec: {
        storageClassName: 'nfs-csi',
        accessModes: ['ReadWriteMany'],
        resources: { requests: { storage: '1Ti' } },
        ...spec,
      },
    });
    const severities = (objects: unknown[]) => ruleHits(objects, RULE).map((hit) => [hit.path, hit.severity]);

    test('is a warning while every claim of it binds such a volume', () => {
      expect(severities([storageClass({ parameters: {} }), staticVolume, claimOf({ volumeName: 'shared' })])).toEqual([
        ['parameters.server', 'warning'],
        ['parameters.share', 'warning'],
      ]);
    });

    test('is refused when a claim of it would be provisioned, or no volume of it is in the input', () => {
      const provisioned = {
        ...claimOf({}),
        metadata: { name: 'other' },
        spec: { ...claimOf({}).spec, resources: { requests: { storage: '2Ti' } } },
      };
      expect(
        severities([storageClass({ parameters: {} }), staticVolume, claimOf({ volumeName: 'shared' }), provisioned]),
      ).toEqual([
        ['parameters.server', 'error'],
        ['parameters.share', 'error'],
      ]);
      expect(severities([storageClass({ parameters: {} }), claimOf({})])).toEqual([
        ['parameters.server', 'error'],
        ['parameters.share', 'error'],
      ]);
    });
  });

  test('passes a complete class and ignores other provisioners', () => {
    expect(
      ruleHits([storageClass({}), { ...storageClass({ parameters: {} }), provisioner: 'example.com/nfs' }], RULE),
    ).toEqual([]);
  });
});

import { ruleHits } from '../../../support/findings';
import { validateObjects } from '../../../../validators';

const RULE = 'nfs-volume-without-node-prerequisite';
const NFS_LABEL = 'node.ballast.dev/nfs-client';

const deployment = (podSpec: Record<string, unknown>, namespace = 'shop') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx' }], ...podSpec },
    },
  },
});
const inlineNfs = {
  volumes: [
    { name: 'cache', emptyDir: {} },
    { name: 'data', nfs: { server: 'nfs.example.com', path: '/exports' } },
  ],
};
const requiredAffinity = (...terms: Array<Array<Record<string, unknown>>>) => ({
  affinity: {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: terms.map((matchExpressions) => ({ matchExpressions })),
      },
    },
  },
});
const onLabel = { key: NFS_LABEL, operator: 'In', values: ['installed'] };

const nfsVolume = (spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name: 'shared' },
  spec: {
    capacity: { storage: '10Gi' },
    accessModes: ['ReadWriteMany'],
    mountOptions: ['nfsvers=4.1'],
    nfs: { server: 'nfs.example.com', path: '/exports' },
    ...spec,
  },
});
const claim = {
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'shared', namespace: 'shop' },
  spec: {
    volumeName: 'shared',
    storageClassName: '',
    accessModes: ['ReadWriteMany'],
    resources: { requests: { storage: '10Gi' } },
  },
};
const claimVolume = { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'shared' } }] };
const volumeAffinity = { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [onLabel] }] } } };

describe(RULE, () => {
  test('refuses an inline nfs volume on a pod template without node affinity (incident 5)', () => {
    expect(ruleHits([deployment(inlineNfs)], RULE)).toEqual([
      {
        kind: 'Deployment',
        name: 'web',
        path: 'spec.template.spec.volumes[1].nfs',
        severity: 'error',
        suppressed: false,
      },
    ]);
  });

  test('refuses it on a CronJob and on a bare Pod too', () => {
    const cronJob = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'backup' },
      spec: { schedule: '@daily', jobTemplate: { spec: { template: { spec: { containers: [], ...inlineNfs } } } } },
    };
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'debug' }, spec: { containers: [], ...inlineNfs } };
    expect(ruleHits([cronJob, pod], RULE).map((hit) => hit.path)).toEqual([
      'spec.jobTemplate.spec.template.spec.volumes[1].nfs',
      'spec.volumes[1].nfs',
    ]);
  });

  test('passes with required node affinity (In or Exists) or a nodeSelector on the prerequisite label', () => {
    expect(
      ruleHits(
        [
          deployment({ ...inlineNfs, ...requiredAffinity([{ key: 'zone', operator: 'In', values: ['a'] }, onLabel]) }),
          deployment({ ...inlineNfs, ...requiredAffinity([{ key: NFS_LABEL, operator: 'Exists' }]) }),
          deployment({ ...inlineNfs, nodeSelector: { [NFS_LABEL]: 'installed' } }),
        ],
        RULE,
      ),
    ).toEqual([]);
  });

  test('refuses affinity that does not really require the label', () => {
    const cases = [
      requiredAffinity([onLabel], [{ key: 'zone', operator: 'In', values: ['a'] }]), // a second term admits any node in zone a
      requiredAffinity([{ key: NFS_LABEL, operator: 'NotIn', values: ['installed'] }]),
      requiredAffinity([{ key: NFS_LABEL, operator: 'In', values: [] }]),
      requiredAffinity([{ key: 'node.ballast.dev/rbd-client', operator: 'Exists' }]), // another prerequisite's label
      {
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 1, preference: { matchExpressions: [onLabel] } },
            ],
          },
        },
      },
    ];
    for (const affinity of cases) {
      expect(ruleHits([deployment({ ...inlineNfs, ...affinity })], RULE)).toHaveLength(1);
    }
  });

  test("accepts a team's own label key when configured in prerequisiteLabelKeys", () => {
    const own = deployment({ ...inlineNfs, nodeSelector: { 'example.com/nfs-ready': 'yes' } });
    expect(ruleHits([own], RULE)).toHaveLength(1);
    expect(
      ruleHits([own], RULE, { parameters: { [RULE]: { prerequisiteLabelKeys: ['example.com/nfs-ready'] } } }),
    ).toEqual([]);
  });

  test('refuses an NFS PersistentVolume without spec.nodeAffinity on the label; the pods using it get a warning', () => {
    expect(ruleHits([nfsVolume(), claim, deployment(claimVolume)], RULE)).toEqual([
      { kind: 'PersistentVolume', name: 'shared', path: 'spec.nfs', severity: 'error', suppressed: false },
      {
        kind: 'Deployment',
        name: 'web',
        path: 'spec.template.spec.volumes[0].persistentVolumeClaim',
        severity: 'warning',
        suppressed: false,
      },
    ]);
  });

  test('a claim-mounting pod with its own affinity is fine, the PV is still reported', () => {
    expect(
      ruleHits([nfsVolume(), claim, deployment({ ...claimVolume, ...requiredAffinity([onLabel]) })], RULE),
    ).toEqual([{ kind: 'PersistentVolume', name: 'shared', path: 'spec.nfs', severity: 'error', suppressed: false }]);
  });

  test('passes an NFS PersistentVolume with required node affinity, and every pod using it', () => {
    expect(ruleHits([nfsVolume(volumeAffinity), claim, deployment(claimVolume)], RULE)).toEqual([]);
  });

  test('ignores csi-driver-nfs volumes, which bring their own mount helper, and claims of other volumes', () => {
    const csiVolume = nfsVolume({
      nfs: undefined,
      csi: { driver: 'nfs.csi.k8s.io', volumeHandle: 'nfs.example.com#/exports#' },
    });
    const inlineCsi = {
      volumes: [
        {
          name: 'data',
          csi: { driver: 'nfs.csi.k8s.io', volumeAttributes: { server: 'nfs.example.com', share: '/' } },
        },
      ],
    };
    expect(ruleHits([csiVolume, claim, deployment(claimVolume), deployment(inlineCsi)], RULE)).toEqual([]);
  });

  // vczyh/k8s-deployments (held-out-9) nfs-client/: an nfs-client-provisioner named fuseim.pri/ifs
  // and its class managed-nfs-storage, whose volumes are in-tree NFS.
  const nfsClientProvisioner = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'nfs-client-provisioner' },
    spec: {
      template: {
        spec: {
          containers: [
            {
              name: 'nfs-client-provisioner',
              image: 'quay.io/external_storage/nfs-client-provisioner:latest',
              env: [{ name: 'PROVISIONER_NAME', value: 'fuseim.pri/ifs' }],
              volumeMounts: [{ name: 'nfs-client-root', mountPath: '/persistentvolumes' }],
            },
          ],
          volumes: [{ name: 'nfs-client-root', nfs: { server: '192.168.0.10', path: '/data' } }],
          nodeSelector: { [NFS_LABEL]: 'installed' },
        },
      },
    },
  };
  const managedNfsStorage = {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'managed-nfs-storage' },
    provisioner: 'fuseim.pri/ifs',
  };
  const statefulSet = (podSpec: Record<string, unknown>, claimTemplate: Record<string, unknown>) => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'rabbitmq' },
    spec: {
      serviceName: 'rabbitmq-headless',
      replicas: 3,
      template: { spec: { containers: [{ name: 'rabbitmq', image: 'rabbitmq:3.8' }], ...podSpec } },
      volumeClaimTemplates: [claimTemplate],
    },
  });
  const claimTemplateWarning = {
    kind: 'StatefulSet',
    name: 'rabbitmq',
    path: 'spec.volumeClaimTemplates[0]',
    severity: 'warning',
    suppressed: false,
  };

  // vczyh/k8s-deployments (held-out-9) rabbitmq/statefulset.yaml: claim templates of class managed-nfs-storage.
  test('real world: warns on a StatefulSet whose claim templates are of a class that creates in-tree NFS volumes', () => {
    const template = {
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteMany'], storageClassName: 'managed-nfs-storage' },
    };
    expect(ruleHits([nfsClientProvisioner, managedNfsStorage, statefulSet({}, template)], RULE)).toEqual([
      claimTemplateWarning,
    ]);
    const onPreparedNodes = statefulSet({ nodeSelector: { [NFS_LABEL]: 'installed' } }, template);
    expect(ruleHits([nfsClientProvisioner, managedNfsStorage, onPreparedNodes], RULE)).toEqual([]);
  });

  // xxlaila/kubernetes-yaml (held-out-46) fluentd-elasticsearch/stateful/es-data-stateful.yaml: the
  // claim template names managed-nfs-storage by the beta annotation, which the PV controller reads
  // ahead of its storageClassName (standard).
  test('real world: a claim template that names its class by the beta annotation is of that class', () => {
    const annotated = (annotation: string) => ({
      metadata: { name: 'storage', annotations: { 'volume.beta.kubernetes.io/storage-class': annotation } },
      spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard' },
    });
    const standard = { ...managedNfsStorage, metadata: { name: 'standard' }, provisioner: 'kubernetes.io/gce-pd' };
    const objects = [nfsClientProvisioner, managedNfsStorage, standard];
    expect(ruleHits([...objects, statefulSet({}, annotated('managed-nfs-storage'))], RULE)).toEqual([
      claimTemplateWarning,
    ]);
    expect(ruleHits([...objects, statefulSet({}, annotated('standard'))], RULE)).toEqual([]);
  });

  // fanghongbo/k8s-deploy (held-out-96) mysql/house-mysql-rc.yaml and nfs-provisioner/class.yaml:
  // claims that name no class take the default class nfs-storage, of an nfs-client provisioner;
  // cheferrari/k8s-env-setting-up (held-out-96) myapp-sts-test.yaml: claim templates likewise.
  test('real world: claims and claim templates that name no class are of the default class', () => {
    const defaultNfs = {
      ...managedNfsStorage,
      metadata: { name: 'nfs-storage', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    };
    const notDefault = { ...managedNfsStorage, metadata: { name: 'nfs-storage' } };
    const classless = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'house-mysql-pvc', namespace: 'default' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '100Gi' } } },
    };
    const replicationController = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'house-mysql', namespace: 'default' },
      spec: {
        replicas: 1,
        template: {
          spec: {
            containers: [{ name: 'mysql', image: 'mysql' }],
            volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'house-mysql-pvc' } }],
          },
        },
      },
    };
    expect(ruleHits([nfsClientProvisioner, defaultNfs, classless, replicationController], RULE)).toEqual([
      {
        kind: 'ReplicationController',
        name: 'house-mysql',
        path: 'spec.template.spec.volumes[0].persistentVolumeClaim',
        severity: 'warning',
        suppressed: false,
      },
    ]);
    expect(ruleHits([nfsClientProvisioner, notDefault, classless, replicationController], RULE)).toEqual([]);
    const template = { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } };
    expect(ruleHits([nfsClientProvisioner, defaultNfs, statefulSet({}, template)], RULE)).toEqual([
      claimTemplateWarning,
    ]);
    expect(ruleHits([nfsClientProvisioner, notDefault, statefulSet({}, template)], RULE)).toEqual([]);
    // carlosedp/kubernetes-arm (held-out-511) 3-NFS_Storage/3-deployment-arm.yaml: the ARM build of
    // nfs-client-provisioner, named nfs-provisioner/nfs-ssd1, whose class is the default.
    const armProvisioner = JSON.parse(
      JSON.stringify(nfsClientProvisioner)
        .replace('nfs-client-provisioner:latest', 'nfs-client-provisioner-arm:latest')
        .replace('fuseim.pri/ifs', 'nfs-provisioner/nfs-ssd1'),
    ) as Record<string, unknown>;
    const nfsSsd1 = {
      ...defaultNfs,
      metadata: { ...defaultNfs.metadata, name: 'nfs-ssd1' },
      provisioner: 'nfs-provisioner/nfs-ssd1',
    };
    expect(ruleHits([armProvisioner, nfsSsd1, classless, replicationController], RULE)).toEqual([
      {
        kind: 'ReplicationController',
        name: 'house-mysql',
        path: 'spec.template.spec.volumes[0].persistentVolumeClaim',
        severity: 'warning',
        suppressed: false,
      },
    ]);
    // An image of another name is no such provisioner, whatever its suffix.
    const otherImage = JSON.parse(
      JSON.stringify(armProvisioner).replace('nfs-client-provisioner-arm', 'nfs-client-provisioner-armory'),
    ) as Record<string, unknown>;
    expect(ruleHits([otherImage, nfsSsd1, classless, replicationController], RULE)).toEqual([]);
  });

  // jaysuzi5/home-lab (held-out-262) manual/splunk/deployment.yaml: a claim of class nfs-client,
  // which the input does not hold, the name nfs-subdir-external-provisioner gives its class;
  // jdost/homelab-manifests (held-out-262): a kustomize patch makes nfs-client the default of the
  // class its remote base installs, and claim templates name no class.
  test('real world: a class the input does not hold, named as nfs-subdir names its own (nfs-client), is in-tree NFS', () => {
    const namedClaim = (storageClassName?: string) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'shared', namespace: 'shop' },
      spec: { accessModes: ['ReadWriteMany'], ...(storageClassName ? { storageClassName } : {}) },
    });
    const warning = {
      kind: 'Deployment',
      name: 'web',
      path: 'spec.template.spec.volumes[0].persistentVolumeClaim',
      severity: 'warning',
      suppressed: false,
    };
    expect(ruleHits([namedClaim('nfs-client'), deployment(claimVolume)], RULE)).toEqual([warning]);
    expect(
      ruleHits(
        [namedClaim('nfs-client'), deployment({ ...claimVolume, nodeSelector: { [NFS_LABEL]: 'installed' } })],
        RULE,
      ),
    ).toEqual([]);
    // Where the input holds the class, its provisioner decides: csi-driver-nfs brings its own mount helper.
    const csiClass = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'nfs-client' },
      provisioner: 'nfs.csi.k8s.io',
    };
    expect(ruleHits([csiClass, namedClaim('nfs-client'), deployment(claimVolume)], RULE)).toEqual([]);
    expect(ruleHits([namedClaim('fast-ssd'), deployment(claimVolume)], RULE)).toEqual([]);
    const defaultPatch = {
      object: {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'nfs-client', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      },
      patch: true,
    };
    const template = { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } };
    const findings = validateObjects([defaultPatch, { object: statefulSet({}, template) }]).findings;
    expect(findings.filter((f) => f.rule === RULE).map((f) => ({ path: f.path, severity: f.severity }))).toEqual([
      { path: 'spec.volumeClaimTemplates[0]', severity: 'warning' },
    ]);
    expect(findings.find((f) => f.rule === RULE)?.message).toContain(
      'StorageClass nfs-client, a class the input does not hold',
    );
  });

  // cctvto/k8s-elk (held-out-71) yaml/zookeeper.yaml and zookeeper-pv.yaml: StatefulSet zk's claim
  // template names class "anything" by the beta annotation, as do the in-tree NFS volumes it binds.
  test('real world: claim templates that bind in-tree NFS volumes get the pointer a pod on such a claim gets', () => {
    const nfsVolume = (name: string, nodeAffinity?: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name, annotations: { 'volume.beta.kubernetes.io/storage-class': 'anything' } },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        nfs: { server: '10.10.10.220', path: `/nfs_dir/zookeeper/${name}` },
        ...(nodeAffinity ? { nodeAffinity } : {}),
      },
    });
    const template = {
      metadata: { name: 'datadir', annotations: { 'volume.beta.kubernetes.io/storage-class': 'anything' } },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    };
    const zk = { ...statefulSet({}, template), metadata: { name: 'zk' } };
    expect(ruleHits([nfsVolume('k8s-pv-zk01'), zk], RULE)).toEqual([
      { kind: 'PersistentVolume', name: 'k8s-pv-zk01', path: 'spec.nfs', severity: 'error', suppressed: false },
      { kind: 'StatefulSet', name: 'zk', path: 'spec.volumeClaimTemplates[0]', severity: 'warning', suppressed: false },
    ]);
    const prepared = {
      required: { nodeSelectorTerms: [{ matchExpressions: [{ key: NFS_LABEL, operator: 'Exists' }] }] },
    };
    expect(ruleHits([nfsVolume('k8s-pv-zk01', prepared), zk], RULE)).toEqual([]);
  });

  // digitalocean/marketplace-kubernetes stacks/openebs-nfs-provisioner (held-out-28): class
  // nfs-rwx-storage of OpenEBS's dynamic NFS provisioner; rook/nfs cluster/examples/kubernetes/nfs
  // (held-out-73): class rook-nfs-share1 of Rook's NFS operator, named after its NFSServer. Both
  // provision in-tree NFS volumes; a node-local class of OpenEBS does not.
  test.each([
    ['an OpenEBS dynamic NFS class', 'openebs.io/nfsrwx'],
    ["a class of Rook's NFS operator", 'nfs.rook.io/rook-nfs-provisioner'],
  ])('real world: a claim of %s needs the NFS client too', (_what, provisioner) => {
    const storageClass = (name: string) => ({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'nfs-rwx-storage' },
      provisioner: name,
    });
    const rwxClaim = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'nfs-pvc' },
      spec: { accessModes: ['ReadWriteMany'], storageClassName: 'nfs-rwx-storage' },
    };
    const consumer = deployment({ volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'nfs-pvc' } }] });
    expect(
      ruleHits([storageClass(provisioner), rwxClaim, consumer], RULE).map((hit) => [hit.path, hit.severity]),
    ).toEqual([['spec.template.spec.volumes[0].persistentVolumeClaim', 'warning']]);
    expect(ruleHits([storageClass('openebs.io/local'), rwxClaim, consumer], RULE)).toEqual([]);
  });

  // narendar77/external-storage (held-out-68), a copy of kubernetes-incubator/external-storage: the
  // NFS Ganesha provisioner (nfs/deploy/kubernetes, `-provisioner=example.com/nfs`), efs-provisioner
  // (aws/efs/deploy, PROVISIONER_NAME from its ConfigMap) and nmaupu/freenas-provisioner (no name
  // set: its default freenas.org/nfs) all create in-tree NFS volumes; their test pods get the warning.
  describe('real world: provisioners of in-tree NFS volumes, however they are named', () => {
    const provisionerDeployment = (image: string, container: Record<string, unknown>) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'provisioner' },
      spec: { template: { spec: { containers: [{ name: 'provisioner', image, ...container }] } } },
    });
    const testPod = (className: string) => [
      { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'nfs' }, provisioner: className },
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'nfs' },
        spec: { accessModes: ['ReadWriteMany'], storageClassName: 'nfs' },
      },
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'write-pod' },
        spec: {
          containers: [{ name: 'write-pod', image: 'busybox' }],
          volumes: [{ name: 'nfs-pvc', persistentVolumeClaim: { claimName: 'nfs' } }],
        },
      },
    ];
    const podWarning = [
      {
        kind: 'Pod',
        name: 'write-pod',
        path: 'spec.volumes[0].persistentVolumeClaim',
        severity: 'warning',
        suppressed: false,
      },
    ];
    const ganesha = provisionerDeployment('quay.io/kubernetes_incubator/nfs-provisioner:latest', {
      args: ['-provisioner=example.com/nfs'],
    });
    const efsConfigMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'efs-provisioner' },
      data: { 'provisioner.name': 'example.com/aws-efs' },
    };
    const efs = provisionerDeployment('quay.io/external_storage/efs-provisioner:latest', {
      env: [
        {
          name: 'PROVISIONER_NAME',
          valueFrom: { configMapKeyRef: { name: 'efs-provisioner', key: 'provisioner.name' } },
        },
      ],
    });
    const freenas = provisionerDeployment('docker.io/nmaupu/freenas-provisioner:2.4', {});

    test('the name on the command line, from a ConfigMap, or the image default', () => {
      expect(ruleHits([ganesha, ...testPod('example.com/nfs')], RULE)).toEqual(podWarning);
      expect(ruleHits([efsConfigMap, efs, ...testPod('example.com/aws-efs')], RULE)).toEqual(podWarning);
      expect(ruleHits([freenas, ...testPod('freenas.org/nfs')], RULE)).toEqual(podWarning);
    });

    test('a name the provisioners in the input do not answer to is not theirs', () => {
      expect(ruleHits([ganesha, ...testPod('example.com/other')], RULE)).toEqual([]);
      expect(ruleHits([efs, ...testPod('example.com/aws-efs')], RULE)).toEqual([]);
      expect(ruleHits(testPod('freenas.org/nfs'), RULE)).toEqual([]);
    });
  });

  test('tolerates malformed objects', () => {
    const malformed = [
      deployment({ volumes: 'nfs' }),
      deployment({ volumes: [null, 5, { nfs: 'x' }] }),
      deployment({
        ...inlineNfs,
        affinity: {
          nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [null, 'x'] } },
        },
      }),
      { kind: 'PersistentVolume', spec: { nfs: {}, nodeAffinity: 'x' } },
    ];
    expect(() => ruleHits(malformed, RULE)).not.toThrow();
    expect(ruleHits(malformed, RULE).map((hit) => hit.path)).toEqual(['spec.template.spec.volumes[1].nfs', 'spec.nfs']);
  });
});

// jarryDk/minikube pgadmin/pgadmin-pv-volume.yaml and postgres/ (held-out-247): in-tree NFS volumes in a
// repository of minikube setups. The minikube ISO ships the NFS client (BR2_PACKAGE_NFS_UTILS=y in its
// defconfig), so the mount fails only where the manifests run on another cluster: a warning that says so.
describe(`${RULE}: directories named for minikube`, () => {
  const at = (file: string) =>
    validateObjects([{ object: nfsVolume(), source: { file } }])
      .findings.filter((finding) => finding.rule === RULE)
      .map((finding) => ({ path: finding.path, severity: finding.severity, message: finding.message }));

  test('real world: an NFS volume under a minikube repository is a warning naming minikube', () => {
    expect(at('/src/jarryDk+minikube/postgres/postgres-pv-volume.yaml')).toEqual([
      { path: 'spec.nfs', severity: 'warning', message: expect.stringContaining('named for minikube') },
    ]);
  });

  test('elsewhere, and under a kind or k3s directory (whose nodes need the client installed), it stays an error', () => {
    for (const file of ['/src/shop/postgres/pv.yaml', '/src/labs/kind/pv.yaml', '/src/homelab-k3s/pv.yaml'])
      expect(at(file)).toEqual([{ path: 'spec.nfs', severity: 'error', message: expect.any(String) }]);
  });
});

import { ruleHits } from '../../../support/findings';
import { ValidationInput, validateObjects } from '../../../../validators';
import { claim, claimVolume, podSpec, storageClass, volume, workload } from './fixtures';

const RULE = 'rwo-claim-in-rolling-deployment';
const deployment = workload('Deployment', 'web', podSpec([claimVolume('data')]));
const path = 'spec.template.spec.volumes[0].persistentVolumeClaim';
/** A kind cluster configuration (kind.x-k8s.io Cluster): kind's default class `standard` is local-path. */
const kindCluster = { apiVersion: 'kind.x-k8s.io/v1alpha4', kind: 'Cluster', nodes: [{ role: 'control-plane' }] };
const noClass = claim('data', { accessModes: ['ReadWriteOnce'] });

/** The rule's findings, as [severity, path], on objects each written in the file given beside it. */
function hitsInFiles(placed: ReadonlyArray<readonly [unknown, string]>): Array<[string, string]> {
  return validateObjects(placed.map(([object, file]) => ({ object, source: { file } })))
    .findings.filter((finding) => finding.rule === RULE)
    .map((finding) => [finding.severity, finding.path]);
}

describe(`${RULE}: what the StorageClass says about where volumes can be used`, () => {
  test.each([
    ['rancher.io/local-path'],
    ['kubernetes.io/no-provisioner'],
    ['openebs.io/local'],
    ['topolvm.io'],
    ['kubevirt.io/hostpath-provisioner'],
  ])('passes a node-local provisioner (%s): every pod runs on the volume’s node', (provisioner) => {
    const objects = [
      storageClass('local', provisioner),
      claim('data', { accessModes: ['ReadWriteOnce'], storageClassName: 'local' }),
      deployment,
    ];
    expect(ruleHits(objects, RULE)).toEqual([]);
  });

  // MasayaAoyama/kubernetes-perfect-guide samples/chapter07 (held-out-51): class `manual` is
  // kubernetes.io/no-provisioner, and its hand-made volume is a GCE persistent disk.
  describe('a static class (kubernetes.io/no-provisioner) is judged by the volume the claim binds', () => {
    const staticClaim = claim('data', {
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'manual',
      selector: { matchLabels: { type: 'gce-pv' } },
    });
    const boundTo = (spec: Record<string, unknown>) => ({
      ...volume('pv', { accessModes: ['ReadWriteOnce'], storageClassName: 'manual', ...spec }),
      metadata: { name: 'pv', labels: { type: 'gce-pv' } },
    });
    const threeReplicas = workload('Deployment', 'web', podSpec([claimVolume('data', true)]), { replicas: 3 });

    test('real world: refuses 3 replicas on a read-only mount of a GCE persistent disk, which attaches to one node', () => {
      const objects = [
        storageClass('manual', 'kubernetes.io/no-provisioner'),
        boundTo({ gcePersistentDisk: { pdName: 'sample-gce-pv', fsType: 'ext4' } }),
        staticClaim,
        threeReplicas,
      ];
      expect(ruleHits(objects, RULE)).toEqual([
        { kind: 'Deployment', name: 'web', path, severity: 'error', suppressed: false },
      ]);
    });

    test('passes a local volume of the same class: every pod runs on its node', () => {
      const local = boundTo({
        local: { path: '/mnt/disks/ssd1' },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-1'] }] },
            ],
          },
        },
      });
      const objects = [storageClass('manual', 'kubernetes.io/no-provisioner'), local, staticClaim, threeReplicas];
      expect(ruleHits(objects, RULE)).toEqual([]);
    });

    test('passes a class the team declares node-local, whatever its volumes', () => {
      const objects = [
        storageClass('manual', 'kubernetes.io/no-provisioner'),
        boundTo({ gcePersistentDisk: { pdName: 'sample-gce-pv' } }),
        staticClaim,
        threeReplicas,
      ];
      const options = { parameters: { [RULE]: { nodeLocalStorageClasses: ['manual'] } } };
      expect(ruleHits(objects, RULE, options)).toEqual([]);
    });
  });

  // Alfred-Sabitzer/microk8s-ubuntu setup/MicroK8SStorage/openebs/busybox.yaml (held-out-61): a
  // rolling Deployment on a jiva (block) claim that also mounts an openebs-hostpath claim.
  test('real world: a pod that also mounts a node-local claim runs on that node, so its block claim is not refused', () => {
    const twoClaims = workload(
      'Deployment',
      'bbopenebs',
      podSpec([claimVolume('jiva'), { name: 'local', persistentVolumeClaim: { claimName: 'hostpath' } }]),
    );
    const jiva = [
      storageClass('openebs-jiva-csi-default', 'jiva.csi.openebs.io'),
      claim('jiva', { accessModes: ['ReadWriteOnce'], storageClassName: 'openebs-jiva-csi-default' }),
    ];
    const local = [
      storageClass('openebs-hostpath', 'openebs.io/local'),
      claim('hostpath', { accessModes: ['ReadWriteOnce'], storageClassName: 'openebs-hostpath' }),
    ];
    expect(ruleHits([...jiva, ...local, twoClaims], RULE)).toEqual([]);
    const jivaOnly = workload('Deployment', 'bbopenebs', podSpec([claimVolume('jiva')]));
    expect(ruleHits([...jiva, jivaOnly], RULE)).toEqual([
      { kind: 'Deployment', name: 'bbopenebs', path, severity: 'error', suppressed: false },
    ]);
  });

  // sig-storage-local-static-provisioner examples/local-reader.yaml: a Deployment mounting a
  // StatefulSet's claim of class local-storage, the class itself not in the file.
  // AdamClaassens/bapies-media plex/deployment.yaml (held-out-106): claims of openebs-localpv-drive1,
  // an OpenEBS Local PV class installed outside the repository.
  // ercanuz/GitRep backup/deployment-mywebapp_nfs_pvc_li.yaml (held-out-153): class lvms-vg1, the
  // class OpenShift LVM Storage makes for its device class vg1 (provisioner topolvm.io).
  // sirpaleet/kubeadm-topolvm-example deployment.yaml (held-out-174): class topolvm-provisioner,
  // which TopoLVM's chart creates (its values.yaml in the repository, the class not in the input).
  // thinkahead/microshift raspberry-pi/influxdb (held-out-202): class kubevirt-hostpath-provisioner,
  // KubeVirt's hostpath provisioner that MicroShift ships, not in the input.
  // metal-stack/csi-driver-lvm examples/csi-deployment.yaml (held-out-285): class csi-driver-lvm-linear,
  // which the driver's chart creates (its templates are the only place the class is written).
  test.each([
    ['local-storage'],
    ['openebs-localpv-drive1'],
    ['lvms-vg1'],
    ['topolvm-provisioner'],
    ['kubevirt-hostpath-provisioner'],
    ['csi-driver-lvm-linear'],
  ])('passes the class names node-local provisioners install, when the class is not in the input: %s', (className) => {
    const objects = [claim('data', { accessModes: ['ReadWriteOnce'], storageClassName: className }), deployment];
    expect(ruleHits(objects, RULE)).toEqual([]);
  });

  // danything/k3s-gitops adguardhome/deployment.yaml (held-out-417): class local-path-retain, the
  // rancher.io/local-path class a k3s homelab adds with reclaimPolicy Retain, not in the input.
  test("real world: a class named local-path-<something> is local-path-provisioner's, unless the input says otherwise", () => {
    const retained = claim('data', { accessModes: ['ReadWriteOnce'], storageClassName: 'local-path-retain' });
    expect(ruleHits([retained, deployment], RULE)).toEqual([]);
    expect(ruleHits([storageClass('local-path-retain', 'rancher.io/local-path'), retained, deployment], RULE)).toEqual(
      [],
    );
    // The class in the input is judged by its provisioner, whatever its name.
    expect(ruleHits([storageClass('local-path-retain', 'driver.longhorn.io'), retained, deployment], RULE)).toEqual([
      { kind: 'Deployment', name: 'web', path, severity: 'error', suppressed: false },
    ]);
    // A name that only contains the words is not the convention.
    const other = claim('data', { accessModes: ['ReadWriteOnce'], storageClassName: 'ssd-local-path' });
    expect(ruleHits([other, deployment], RULE)).toEqual([
      { kind: 'Deployment', name: 'web', path, severity: 'error', suppressed: false },
    ]);
  });

  // constellation-net/cluster apps/local-provisioner/ and apps/lldap/deployment.yaml (held-out-528): a
  // homelab installs local-path-provisioner by hand under its own name; its class is node-local.
  test('real world: a class whose provisioner the input runs from the local-path-provisioner image is node-local', () => {
    const local = claim('data', { accessModes: ['ReadWriteOnce'], storageClassName: 'local' });
    const provisioner = (args: string[], env: unknown[] = []) =>
      workload(
        'Deployment',
        'local-provisioner',
        podSpec([], {
          containers: [
            { name: 'path-provisioner', image: 'rancher/local-path-provisioner:v0.0.29', command: args, env },
          ],
        }),
      );
    const starsystem = storageClass('local', 'provisioner.starsystem.dev/local');
    const named = provisioner([
      'local-path-provisioner',
      'start',
      '--provisioner-name',
      'provisioner.starsystem.dev/local',
    ]);
    expect(ruleHits([named, starsystem, local, deployment], RULE)).toEqual([]);
    expect(
      ruleHits(
        [
          provisioner(
            ['local-path-provisioner', 'start'],
            [{ name: 'PROVISIONER_NAME', value: 'provisioner.starsystem.dev/local' }],
          ),
          starsystem,
          local,
          deployment,
        ],
        RULE,
      ),
    ).toEqual([]);
    // Without the provisioner in the input, or under its default name only, the class is a disk.
    const refused = [{ kind: 'Deployment', name: 'web', path, severity: 'error', suppressed: false }];
    expect(ruleHits([starsystem, local, deployment], RULE)).toEqual(refused);
    expect(ruleHits([provisioner(['local-path-provisioner', 'start']), starsystem, local, deployment], RULE)).toEqual(
      refused,
    );
  });

  // SmolTech/CityForge k8s/opensearch.yaml (held-out-34, class microk8s-hostpath) and
  // alex204b/bukki-booking-platform k8s/backend-deployment.yaml (class hostpath, Docker Desktop).
  test.each([['microk8s-hostpath'], ['hostpath']])(
    'real world: the default class of MicroK8s and Docker Desktop (%s) is node-local',
    (className) => {
      const objects = [claim('data', { accessModes: ['ReadWriteOnce'], storageClassName: className }), deployment];
      expect(ruleHits(objects, RULE)).toEqual([]);
      expect(ruleHits([storageClass(className, 'docker.io/hostpath'), ...objects], RULE)).toEqual([]);
    },
  );

  // k8up-io/k8up e2e/definitions (held-out-10): claims of class standard next to a kind cluster
  // config (e2e/definitions/kind/config.yaml); kind's standard class is rancher.io/local-path.
  test('real world: class `standard` is node-local when the input configures a kind cluster, and is refused otherwise (GKE pd)', () => {
    const standardClaim = claim('data', { accessModes: ['ReadWriteOnce'], storageClassName: 'standard' });
    expect(ruleHits([standardClaim, deployment, kindCluster], RULE)).toEqual([]);
    expect(ruleHits([standardClaim, deployment], RULE)).toEqual([
      { kind: 'Deployment', name: 'web', path, severity: 'error', suppressed: false },
    ]);
    // A class of that name in the input is judged by its provisioner, kind or not.
    expect(
      ruleHits([storageClass('standard', 'pd.csi.storage.gke.io'), standardClaim, deployment, kindCluster], RULE),
    ).toEqual([{ kind: 'Deployment', name: 'web', path, severity: 'error', suppressed: false }]);
  });

  // shannon1989/data-platform-k8s infra/minio (held-out-32): a rolling Deployment on a claim of no
  // class, in a repository whose clusters are kind clusters (kind.x-k8s.io Cluster configs).
  test("real world: a claim of no class gets kind's default class (local-path) where the input configures a kind cluster", () => {
    expect(ruleHits([noClass, deployment, kindCluster], RULE)).toEqual([]);
    expect(ruleHits([noClass, deployment], RULE)).toEqual([
      { kind: 'Deployment', name: 'web', path, severity: 'error', suppressed: false },
    ]);
  });

  // k8up-io/k8up (held-out-10): e2e/definitions/kind/config.yaml speaks for the e2e suite beside it
  // (e2e/definitions/pvc-rwo-subject/), not for config/samples/deployments/mariadb.yaml (labelled fail
  // in held-out-65 as a Deployment on the cluster's default class, an attachable disk).
  test("real world: a kind configuration speaks for its project's directory, not for the whole repository", () => {
    const at = (directory: string) =>
      hitsInFiles([
        [kindCluster, 'k8up/e2e/definitions/kind/config.yaml'],
        [noClass, `${directory}/claim.yaml`],
        [deployment, `${directory}/deployment.yaml`],
      ]);
    expect(at('k8up/e2e/definitions/pvc-rwo-subject')).toEqual([]);
    expect(at('k8up/e2e/definitions/kind')).toEqual([]);
    expect(at('k8up/config/samples/deployments')).toEqual([['error', path]]);
  });

  // fihrizilhamr/KA-Tugas-5-2024 (held-out-227): setup-cluster/kind/cluster-config.yaml sets up the
  // cluster the whole repository's manifests (mysql/) run on; a directory named for setting a cluster
  // up speaks for the one above it.
  test('real world: a kind configuration under directories named for cluster setup speaks for the repository', () => {
    const at = (kindFile: string) =>
      hitsInFiles([
        [kindCluster, kindFile],
        [noClass, 'repo/mysql/pvc-deployment.yaml'],
        [deployment, 'repo/mysql/mysql-deployment.yaml'],
      ]);
    expect(at('repo/setup-cluster/kind/cluster-config.yaml')).toEqual([]);
    expect(at('repo/bootstrap/kind-config.yaml')).toEqual([]);
    // A kind configuration of a test suite's own directory (hack/, e2e/) speaks for that suite only.
    expect(at('repo/hack/kind/config.yaml')).toEqual([['error', path]]);
  });

  // VeylanSolmira/crucible-eval-platform k8s/ (held-out-231): a kind configuration for local runs
  // (k8s/kind-with-calico.yaml) and, in the same kustomize base as the apps, a cluster-autoscaler with
  // --cloud-provider=aws: the base also runs on EKS, whose default class gp2 is an EBS disk.
  test('real world: manifests the input runs on kind and on a cloud cluster it autoscales are refused, saying where they fail', () => {
    const autoscaler = (provider: string) =>
      workload(
        'Deployment',
        'cluster-autoscaler',
        podSpec([], {
          containers: [
            {
              name: 'cluster-autoscaler',
              image: 'registry.k8s.io/autoscaling/cluster-autoscaler:v1.28.2',
              command: ['./cluster-autoscaler', `--cloud-provider=${provider}`],
            },
          ],
        }),
      );
    const run = (autoscalerFile: string, provider = 'aws') =>
      validateObjects([
        { object: kindCluster, source: { file: 'k8s/kind-with-calico.yaml' } },
        { object: autoscaler(provider), source: { file: autoscalerFile } },
        { object: noClass, source: { file: 'k8s/base/redis/redis-main.yaml' } },
        { object: deployment, source: { file: 'k8s/base/redis/redis-main.yaml' } },
      ]).findings.filter((finding) => finding.rule === RULE);
    const [found, ...more] = run('k8s/base/cluster-autoscaler/cluster-autoscaler.yaml');
    expect(more).toEqual([]);
    expect(found).toMatchObject({ severity: 'error', path });
    expect(found?.message).toContain(
      'on the kind cluster the input configures it gets standard; on the AWS cluster whose cluster-autoscaler the input deploys (k8s/base/cluster-autoscaler/cluster-autoscaler.yaml) it gets gp2. This fails where it gets gp2.',
    );
    // An autoscaler of another project, or of a provider with no known default class, says nothing here.
    expect(run('tools/cluster-autoscaler/deploy.yaml')).toEqual([]);
    expect(run('k8s/base/cluster-autoscaler/cluster-autoscaler.yaml', 'clusterapi')).toEqual([]);
  });

  // Akhilkm/HDFS-K8S k8s/hdfs-namenode-deployment.yaml (held-out-32): the Deployment is written
  // without a namespace, its claim (class fast, azure-disk) with namespace hdfs-cluster.
  test('real world: a workload written without a namespace finds its claim written with one', () => {
    const namespaced = {
      ...claim('data', { accessModes: ['ReadWriteOnce'], storageClassName: 'fast' }),
      metadata: { name: 'data', namespace: 'hdfs-cluster' },
    };
    expect(ruleHits([storageClass('fast', 'kubernetes.io/azure-disk'), namespaced, deployment], RULE)).toEqual([
      { kind: 'Deployment', name: 'web', path, severity: 'error', suppressed: false },
    ]);
  });

  // revenge1005/Kubernetes-Study Chap11 11-03 gfs-sc.yml and gfs-client.yml (held-out-100): class
  // gluster-heketi of the in-tree GlusterFS provisioner, under a 2-replica Deployment.
  test.each([
    ['efs-sc', 'efs.csi.aws.com'],
    ['gluster-heketi', 'kubernetes.io/glusterfs'],
  ])(
    'warns (does not refuse) on a shared filesystem, which does not enforce ReadWriteOnce across nodes: %s (%s)',
    (className, provisioner) => {
      const objects = [
        storageClass(className, provisioner),
        claim('data', { accessModes: ['ReadWriteOnce'], storageClassName: className }),
        deployment,
      ];
      expect(ruleHits(objects, RULE)).toEqual([
        { kind: 'Deployment', name: 'web', path, severity: 'warning', suppressed: false },
      ]);
    },
  );

  // 1qzxc/vagrant-kubernetes jenkins.yaml (held-out-22) and tzh666/k8s-infra gitlab (held-out-13):
  // rolling Deployments on claims of nfs-client / managed-nfs-storage, the classes the
  // nfs-subdir-external-provisioner's manifests create, installed outside the repository;
  // BenRachmiel/k8s.local jenkins/deployment.yaml (held-out-101): ceph-filesystem, the CephFS class
  // of rook's rook-ceph-cluster chart, installed by an Argo CD Application; dotbalo/k8s
  // prometheus-operator/grafana-new.yaml (held-out-112): gluster-heketi-2, a GlusterFS class;
  // maituongluan/keycloak-k8s-template postgresql/deployment.yaml (held-out-151): managed-nfs4-storage.
  test('real world: warns (does not refuse) on a class the input lacks whose name says NFS; refuses one whose name says nothing', () => {
    for (const className of [
      'nfs-client',
      'managed-nfs-storage',
      'managed-nfs4-storage',
      'azurefile-csi',
      'ceph-filesystem',
      'gluster-heketi-2',
    ]) {
      const objects = [claim('data', { accessModes: ['ReadWriteOnce'], storageClassName: className }), deployment];
      expect(ruleHits(objects, RULE)).toEqual([
        { kind: 'Deployment', name: 'web', path, severity: 'warning', suppressed: false },
      ]);
    }
    for (const className of ['gp2', 'confnfsx', 'rook-ceph-block', 'ceph-block', 'my-filesystem']) {
      const objects = [claim('data', { accessModes: ['ReadWriteOnce'], storageClassName: className }), deployment];
      expect(ruleHits(objects, RULE)).toEqual([
        { kind: 'Deployment', name: 'web', path, severity: 'error', suppressed: false },
      ]);
    }
    // The class in the input is judged by its provisioner, whatever its name.
    const named = [
      storageClass('nfs-client', 'ebs.csi.aws.com'),
      claim('data', { accessModes: ['ReadWriteOnce'], storageClassName: 'nfs-client' }),
      deployment,
    ];
    expect(ruleHits(named, RULE)).toEqual([
      { kind: 'Deployment', name: 'web', path, severity: 'error', suppressed: false },
    ]);
  });

  test('still refuses block storage, and a class it does not know', () => {
    for (const provisioner of ['ebs.csi.aws.com', 'example.com/unknown']) {
      const objects = [
        storageClass('block', provisioner),
        claim('data', { accessModes: ['ReadWriteOnce'], storageClassName: 'block' }),
        deployment,
      ];
      expect(ruleHits(objects, RULE)).toEqual([
        { kind: 'Deployment', name: 'web', path, severity: 'error', suppressed: false },
      ]);
    }
  });

  test("passes a team's own node-local class named in the nodeLocalStorageClasses parameter, and only that class", () => {
    const objects = (className: string) => [
      storageClass(className, 'example.com/lvm-local'),
      claim('data', { accessModes: ['ReadWriteOnce'], storageClassName: className }),
      deployment,
    ];
    const parameters = { [RULE]: { nodeLocalStorageClasses: ['node-lvm'] } };
    expect(ruleHits(objects('node-lvm'), RULE)).toEqual([
      { kind: 'Deployment', name: 'web', path, severity: 'error', suppressed: false },
    ]);
    expect(ruleHits(objects('node-lvm'), RULE, { parameters })).toEqual([]);
    expect(ruleHits(objects('fast-block'), RULE, { parameters })).toEqual([
      { kind: 'Deployment', name: 'web', path, severity: 'error', suppressed: false },
    ]);
    expect(() =>
      validateObjects(
        objects('x').map((object) => ({ object })),
        { parameters: { [RULE]: { nodeLocalStorageClasses: 'node-lvm' } } },
      ),
    ).toThrow(/parameters\.rwo-claim-in-rolling-deployment: nodeLocalStorageClasses: /);
  });

  // aws-efs-csi-driver examples: every example directory defines its own `efs-claim`, some
  // ReadWriteOnce, some ReadWriteMany; a workload must be judged with the claim beside it.
  test('resolves a claim defined in several files to the one in the workload’s own file', () => {
    const inputs: ValidationInput[] = [
      { object: claim('efs-claim', { accessModes: ['ReadWriteOnce'] }), source: { file: 'a/claim.yaml' } },
      { object: claim('efs-claim', { accessModes: ['ReadWriteMany'] }), source: { file: 'b/example.yaml' } },
      {
        object: workload('Deployment', 'web', podSpec([claimVolume('efs-claim')]), { replicas: 3 }),
        source: { file: 'b/example.yaml' },
      },
    ];
    expect(validateObjects(inputs).findings.filter((finding) => finding.rule === RULE)).toEqual([]);
  });

  // jaccobroere/vu-msc-thesis (held-out-109): claim pvc-out is ReadWriteOnce in archive/setup_pv_gke.yml
  // and ReadWriteMany in scripts/k8s/pv/; the parallel Jobs of scripts/k8s/ use the latter.
  test('resolves a claim defined in several files to the one whose directory shares most of the workload’s', () => {
    const at = (workloadFile: string) =>
      validateObjects([
        { object: claim('pvc-out', { accessModes: ['ReadWriteOnce'] }), source: { file: 'archive/setup_pv_gke.yml' } },
        { object: claim('pvc-out', { accessModes: ['ReadWriteMany'] }), source: { file: 'scripts/k8s/pv/pvc.yml' } },
        {
          object: workload('Deployment', 'web', podSpec([claimVolume('pvc-out')]), { replicas: 3 }),
          source: { file: workloadFile },
        },
      ])
        .findings.filter((finding) => finding.rule === RULE)
        .map((finding) => finding.severity);
    expect(at('scripts/k8s/runner.yml')).toEqual([]);
    expect(at('archive/runner.yml')).toEqual(['error']);
  });
});

describe(`${RULE}: a class filled in at deploy time`, () => {
  // HarrisonEagle/viriot_blockchain kube/pvc-fabric-org1.yaml (held-out-172): the claim's class is
  // `${STORAGE_CLASS}`, which the repository's scripts set per cluster (local-path on kind and k3s).
  const peer = workload('Deployment', 'org1-peer1', podSpec([claimVolume('fabric-org1')]));
  const findings = (className: string) =>
    validateObjects(
      [claim('fabric-org1', { accessModes: ['ReadWriteOnce'], storageClassName: className }), peer].map((object) => ({
        object,
      })),
    )
      .findings.filter((finding) => finding.rule === RULE)
      .map((finding) => ({ path: finding.path, severity: finding.severity, message: finding.message }));

  test.each([['${STORAGE_CLASS}'], ['${STORAGE_CLASS:-standard}'], ['@STORAGE_CLASS@'], ['__STORAGE_CLASS__']])(
    'real world: a placeholder class (%s) is no storage the input holds: a warning that says so',
    (className) => {
      const [found, ...more] = findings(className);
      expect(more).toEqual([]);
      expect(found).toEqual({ path, severity: 'warning', message: expect.any(String) });
      expect(found?.message).toContain(`the placeholder ${className}, filled in at deploy time`);
    },
  );

  test('a class named in full and absent from the input is still refused', () => {
    expect(findings('premium-rwo')).toEqual([{ path, severity: 'error', message: expect.any(String) }]);
  });
});

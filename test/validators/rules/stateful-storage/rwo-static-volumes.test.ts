import { findingsFor, ruleHits } from '../../../support/findings';
import { validateObjects } from '../../../../validators';
import { claim, claimVolume, podSpec, storageClass, volume, workload } from './fixtures';

const RULE = 'rwo-claim-in-rolling-deployment';
const path = 'spec.template.spec.volumes[0].persistentVolumeClaim';
const rolling = workload('Deployment', 'jenkins', podSpec([claimVolume('jenkins-claim')]));
const manualClaim = claim('jenkins-claim', { storageClassName: 'manual', accessModes: ['ReadWriteOnce'] });
const hit = (severity: string) => ({ kind: 'Deployment', name: 'jenkins', path, severity, suppressed: false });

describe(`${RULE}: claims bound by class to pre-provisioned PersistentVolumes (the "manual" class)`, () => {
  // marcel-dempers/docker-development-youtube-series jenkins/: a RollingUpdate (maxSurge 1) Jenkins
  // Deployment on claim jenkins-claim of class manual, and a hostPath PersistentVolume of that class;
  // yurake/k8s-3tier-webapp node-exporter-daemonset.yaml (held-out-21): a DaemonSet on claims bound to
  // hostPath PersistentVolumes. Labellers in ten blind rounds marked such consumers clean: the volume
  // carries the finding.
  test('real world: a hostPath volume is never attached; its risk is reported on the volume, not on each workload', () => {
    const hostPathVolume = volume('jenkins', {
      storageClassName: 'manual',
      capacity: { storage: '10Gi' },
      accessModes: ['ReadWriteOnce'],
      hostPath: { path: '/mnt/data' },
    });
    const daemonSet = workload('DaemonSet', 'node-exporter', podSpec([claimVolume('jenkins-claim')]));
    expect(ruleHits([rolling, hostPathVolume, manualClaim], RULE)).toEqual([]);
    expect(ruleHits([daemonSet, hostPathVolume, manualClaim], RULE)).toEqual([]);
    expect(
      findingsFor([rolling, hostPathVolume, manualClaim]).map((f) => [f.rule, f.object.kind, f.path, f.severity]),
    ).toEqual([['host-path-for-application-data', 'PersistentVolume', 'spec.hostPath', 'warning']]);
  });

  // mpandav-tibco/external-tools-installation (held-out-147): postgre/postgresql.yaml, a rolling
  // Deployment on a 5Gi claim of no class, and jenkins/jenkins.yaml's 1Gi hostPath volume of no
  // class, written for Jenkins: the binder never gives a claim a volume smaller than its request.
  // heloisme/k8s-wordpress-mysql-hetzner-nodeport-pv (held-out-460) and ava-orange-education's CKAD guide
  // (held-out-489): a rolling Deployment on a claim of no class, beside a hostPath volume of no class
  // written for it. The DefaultStorageClass admission plugin gives the claim the cluster's default
  // class, so it never binds that volume and is provisioned for: attachable storage by default.
  test('real world: a claim of no class is given the default class and does not bind a volume of no class beside it', () => {
    const noClass = claim('jenkins-claim', { accessModes: ['ReadWriteOnce'] });
    const hostPathVolume = volume('jenkins-pv', {
      accessModes: ['ReadWriteOnce'],
      hostPath: { path: '/data/jenkins' },
    });
    expect(ruleHits([rolling, noClass, hostPathVolume], RULE)).toEqual([hit('error')]);
    const [finding] = findingsFor([rolling, noClass, hostPathVolume]).filter((f) => f.rule === RULE);
    expect(finding?.message).toContain('PersistentVolume jenkins-pv, of no class, is not bound to it');
    expect(finding?.message).toContain('write storageClassName: "" in the claim');
    // Written with `storageClassName: ""`, the claim asks for no class and binds the volume: no attach.
    const staticClaim = claim('jenkins-claim', { storageClassName: '', accessModes: ['ReadWriteOnce'] });
    expect(ruleHits([rolling, staticClaim, hostPathVolume], RULE)).toEqual([]);
  });

  test('real world: a claim does not bind a volume of its class smaller than the storage it requests', () => {
    const requesting = (storage: string) =>
      claim('jenkins-claim', {
        storageClassName: 'manual',
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage } },
      });
    const hostPathVolume = volume('jenkins-pv', {
      storageClassName: 'manual',
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      hostPath: { path: '/data/jenkins' },
    });
    expect(ruleHits([rolling, requesting('5Gi'), hostPathVolume], RULE)).toEqual([hit('error')]);
    expect(ruleHits([rolling, requesting('1024Mi'), hostPathVolume], RULE)).toEqual([]);
    expect(ruleHits([rolling, requesting('500M'), hostPathVolume], RULE)).toEqual([]);
  });

  // kubestash/docs (held-out-97): docs/guides/platforms/aks/examples/{deployment,pvc}.yaml, a rolling
  // Deployment on a claim of no class (AKS's default: an Azure disk), and in another guide
  // (docs/guides/auto-backup/pvc/examples/nfs_pv.yaml) a volume of no class written for that guide's claim.
  test("real world: a claim binds by class only to a volume within reach of its file, not to another example's", () => {
    const noClass = claim('jenkins-claim', { storageClassName: 'manual', accessModes: ['ReadWriteOnce'] });
    const nfsVolume = volume('nfs-pv', {
      storageClassName: 'manual',
      capacity: { storage: '10Gi' },
      accessModes: ['ReadWriteOnce'],
      nfs: { server: 'nfs.example', path: '/exports' },
    });
    const withVolumeIn = (volumeFile: string) =>
      validateObjects([
        { object: rolling, source: { file: 'docs/guides/platforms/aks/examples/deployment.yaml' } },
        { object: noClass, source: { file: 'docs/guides/platforms/aks/examples/pvc.yaml' } },
        { object: nfsVolume, source: { file: volumeFile } },
      ])
        .findings.filter((finding) => finding.rule === RULE)
        .map((finding) => finding.severity);
    expect(withVolumeIn('docs/guides/auto-backup/pvc/examples/nfs_pv.yaml')).toEqual(['error']);
    // Beside the claim, or below the directory two levels above the claim's own, the volume is the claim's.
    expect(withVolumeIn('docs/guides/platforms/aks/examples/pv.yaml')).toEqual(['warning']);
    expect(withVolumeIn('docs/guides/platforms/aks/pv.yaml')).toEqual(['warning']);
    expect(withVolumeIn('docs/guides/platforms/aks/volumes/pv.yaml')).toEqual(['warning']);
    expect(withVolumeIn('docs/guides/platforms/volumes/pv.yaml')).toEqual(['warning']);
  });

  // hermann225-zrouama/cluster (held-out-317): datastack/lakehouse/nessie/ holds a hostPath volume
  // of class longhorn and the claim written for it; datastack/bi/metabase/ a rolling Deployment on a
  // claim of class longhorn. The PV controller binds a volume to one claim: nessie's claim, applied
  // with it, takes it, and metabase's claim is provisioned by Longhorn, a disk of one node at a time.
  test("real world: a volume written beside a claim that binds it is that claim's, not another app's of its class", () => {
    const longhornClaim = (name: string) =>
      claim(name, {
        storageClassName: 'longhorn',
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '5Gi' } },
      });
    const nessieVolume = volume('nessie-pv', {
      storageClassName: 'longhorn',
      capacity: { storage: '5Gi' },
      accessModes: ['ReadWriteOnce'],
      hostPath: { path: '/data/nessie-data' },
    });
    const metabase = workload('Deployment', 'metabase', podSpec([claimVolume('metabase-pvc')]));
    const inputs = (nessieClaim: boolean) => [
      { object: metabase, source: { file: 'datastack/bi/metabase/deployment.yaml' } },
      { object: longhornClaim('metabase-pvc'), source: { file: 'datastack/bi/metabase/pvc.yaml' } },
      { object: nessieVolume, source: { file: 'datastack/lakehouse/nessie/pv.yaml' } },
      ...(nessieClaim
        ? [{ object: longhornClaim('nessie-pvc'), source: { file: 'datastack/lakehouse/nessie/pvc.yaml' } }]
        : []),
    ];
    const rwoFindings = (nessieClaim: boolean) =>
      validateObjects(inputs(nessieClaim))
        .findings.filter((finding) => finding.rule === RULE)
        .map((finding) => [finding.object.name, finding.path, finding.severity]);
    expect(rwoFindings(true)).toEqual([['metabase', path, 'error']]);
    // Without a claim beside it, the volume is free, and within reach of metabase's claim.
    expect(rwoFindings(false)).toEqual([]);
  });

  // andre-alves5/k8s_templates mssql-pv.yaml (held-out-63): the claim names its class with the beta
  // annotation volume.beta.kubernetes.io/storage-class, which the PV controller reads ahead of
  // storageClassName, and binds the local volume of that class pinned to node lnxdev01.
  test('real world: a class named by the beta annotation binds the local volume of that class, which pins the pods', () => {
    const localVolume = volume('mssql-pv', {
      storageClassName: 'local-storage',
      accessModes: ['ReadWriteOnce'],
      local: { path: '/mnt/sdb' },
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['lnxdev01'] }] },
          ],
        },
      },
    });
    const annotatedClaim = claim(
      'jenkins-claim',
      { accessModes: ['ReadWriteOnce'] },
      { annotations: { 'volume.beta.kubernetes.io/storage-class': 'local-storage' } },
    );
    expect(ruleHits([rolling, localVolume, annotatedClaim], RULE)).toEqual([]);
    // Without the annotation the claim takes the default class, taken to be attachable: refused.
    const unannotated = claim('jenkins-claim', { accessModes: ['ReadWriteOnce'] });
    expect(ruleHits([rolling, localVolume, unannotated], RULE)).toEqual([hit('error')]);
  });

  // DataShades/ckan-kubernetes pg/k8s (held-out-395): a local PersistentVolume of class gp2 written
  // without nodeAffinity beside the Postgres claim of that class. The API server refuses such a
  // volume ("Local volume requires node affinity"), so the claim gets an EBS disk from gp2.
  test('real world: a local volume without nodeAffinity, which the API server refuses, binds no claim', () => {
    const gp2 = storageClass('gp2', 'kubernetes.io/aws-ebs');
    const gp2Claim = claim('jenkins-claim', { accessModes: ['ReadWriteOnce'], storageClassName: 'gp2' });
    const local = (nodeAffinity?: unknown) =>
      volume('ckan-pg', {
        storageClassName: 'gp2',
        accessModes: ['ReadWriteOnce'],
        local: { path: '/mnt/disks/ckan-pg' },
        ...(nodeAffinity ? { nodeAffinity } : {}),
      });
    expect(ruleHits([rolling, gp2, gp2Claim, local()], RULE)).toEqual([hit('error')]);
    const onNode = {
      required: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['n1'] }] }],
      },
    };
    expect(ruleHits([rolling, gp2, gp2Claim, local(onNode)], RULE)).toEqual([]);
  });

  test('an NFS volume of the class is a shared filesystem: a warning naming the volume', () => {
    const nfsVolume = volume('shared', {
      storageClassName: 'manual',
      accessModes: ['ReadWriteOnce'],
      nfs: { server: 'nfs.example', path: '/exports' },
    });
    const objects = [rolling, nfsVolume, manualClaim];
    expect(ruleHits(objects, RULE)).toEqual([hit('warning')]);
    expect(findingsFor(objects).find((f) => f.rule === RULE)?.message).toContain('of nfs PersistentVolume shared');
  });

  // kubernetes-sigs/alibaba-cloud-csi-driver examples/nas (held-out-10): a rolling Deployment on claim
  // nas-pvc, which names no class and selects PV nas-csi-pv by label; the PV is of the NAS CSI driver
  // (an NFS share: nothing to attach).
  test('real world: a claim binds to the volume its selector matches; a cloud NAS volume is a shared filesystem: a warning', () => {
    const nasVolume = {
      ...volume('nas-csi-pv', {
        accessModes: ['ReadWriteOnce'],
        csi: {
          driver: 'nasplugin.csi.alibabacloud.com',
          volumeHandle: 'nas-csi-pv',
          volumeAttributes: { path: '/k8s' },
        },
      }),
      metadata: { name: 'nas-csi-pv', labels: { 'alicloud-pvname': 'nas-csi-pv' } },
    };
    const selecting = (selector: Record<string, unknown>) =>
      claim('jenkins-claim', { accessModes: ['ReadWriteOnce'], selector });
    const objects = [rolling, nasVolume, selecting({ matchLabels: { 'alicloud-pvname': 'nas-csi-pv' } })];
    expect(ruleHits(objects, RULE)).toEqual([hit('warning')]);
    expect(findingsFor(objects).find((f) => f.rule === RULE)?.message).toContain(
      'of nasplugin.csi.alibabacloud.com PersistentVolume nas-csi-pv',
    );
    const expressions = selecting({
      matchExpressions: [{ key: 'alicloud-pvname', operator: 'In', values: ['nas-csi-pv'] }],
    });
    expect(ruleHits([rolling, nasVolume, expressions], RULE)).toEqual([hit('warning')]);
    // EduardoJM/descomplicando-kubernetes training/day-6 (held-out-126): a selector that matches no
    // volume in the input leaves the storage unknown (such a claim is never provisioned): a warning
    // that says so, whatever class the claim names.
    const unmatched = [rolling, nasVolume, selecting({ matchLabels: { 'alicloud-pvname': 'other' } })];
    expect(ruleHits(unmatched, RULE)).toEqual([hit('warning')]);
    expect(findingsFor(unmatched).find((f) => f.rule === RULE)?.message).toContain('no volume in the input matches');
    const namedClass = claim('jenkins-claim', {
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'default',
      selector: { matchLabels: { storage: 'lento' } },
    });
    expect(ruleHits([rolling, namedClass], RULE)).toEqual([hit('warning')]);
  });

  // konveyor/mig-demo-apps apps/sock-shop/manifests/carts-db-dep.yaml (held-out-201): claims with
  // storageClassName "" (static binding only) whose hand-made volumes are not in the repository.
  test('real world: a claim of class "" whose volume is not in the input has unknown storage: a warning that says so', () => {
    const staticOnly = claim('jenkins-claim', { accessModes: ['ReadWriteOnce'], storageClassName: '' });
    expect(ruleHits([rolling, staticOnly], RULE)).toEqual([hit('warning')]);
    expect(findingsFor([rolling, staticOnly]).find((f) => f.rule === RULE)?.message).toContain(
      'it binds a volume made by hand without a class, and none in the input fits it',
    );
    // With its volume in the input, the volume decides: a cloud disk is refused.
    const disk = volume('jenkins', {
      storageClassName: '',
      accessModes: ['ReadWriteOnce'],
      awsElasticBlockStore: { volumeID: 'vol-0abc' },
    });
    expect(ruleHits([rolling, staticOnly, disk], RULE)).toEqual([hit('error')]);
  });

  // strus38/orchestratedRPiCluster ftpsvc/sftp-server/sftpserver.yaml (held-out-232): a claim that names
  // its volume (volumeName: sftp-nfs), a share the repository does not hold.
  test('real world: a claim that names a volume the input does not hold has unknown storage: a warning that says so', () => {
    const named = claim('jenkins-claim', { accessModes: ['ReadWriteOnce'], volumeName: 'sftp-nfs' });
    expect(ruleHits([rolling, named], RULE)).toEqual([hit('warning')]);
    expect(findingsFor([rolling, named]).find((f) => f.rule === RULE)?.message).toContain(
      'The claim names its volume (volumeName: sftp-nfs), which is not in the input',
    );
    // With that volume in the input, the volume decides: a cloud disk is refused.
    const disk = volume('sftp-nfs', { accessModes: ['ReadWriteOnce'], awsElasticBlockStore: { volumeID: 'vol-0abc' } });
    expect(ruleHits([rolling, named, disk], RULE)).toEqual([hit('error')]);
  });

  test('an iSCSI volume of the class is network block storage: still refused', () => {
    const blockVolume = volume('block', {
      storageClassName: 'manual',
      accessModes: ['ReadWriteOnce'],
      iscsi: { targetPortal: '10.0.0.5:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0 },
    });
    expect(ruleHits([rolling, blockVolume, manualClaim], RULE)).toEqual([hit('error')]);
  });

  // nightmareze1/kops-k8s-traefik-addons services/1-traefik/ (held-out-538): a rolling Traefik on
  // claim traefik-pvc, bound to a PersistentVolume of an EBS disk that both declare ReadWriteMany.
  test('real world: a cloud disk declared ReadWriteMany still attaches to one node: refused, saying why', () => {
    const manyClaim = claim('jenkins-claim', { storageClassName: 'manual', accessModes: ['ReadWriteMany'] });
    const ebs = volume('ebs', {
      storageClassName: 'manual',
      accessModes: ['ReadWriteMany'],
      awsElasticBlockStore: { volumeID: 'vol-0123456789abcdef0', fsType: 'ext4' },
    });
    const [finding] = findingsFor([rolling, ebs, manyClaim]).filter((f) => f.rule === RULE);
    expect(finding).toMatchObject({ path, severity: 'error' });
    expect(finding?.message).toContain(
      'the volume is a cloud disk (awsElasticBlockStore), which attaches to one node at a time whatever access mode it declares',
    );
    // A shared filesystem declared ReadWriteMany, or the disk mounted read-only, is no finding.
    const nfs = volume('nfs', {
      storageClassName: 'manual',
      accessModes: ['ReadWriteMany'],
      nfs: { server: 'nas', path: '/x' },
    });
    expect(ruleHits([rolling, nfs, manyClaim], RULE)).toEqual([]);
    const readOnly = workload('Deployment', 'jenkins', podSpec([claimVolume('jenkins-claim', true)]));
    expect(ruleHits([readOnly, ebs, manyClaim], RULE)).toEqual([]);
  });

  test('a volume of the class that does not offer the claimed mode, or is claimed by another claim, is not the one bound', () => {
    const readOnly = volume('jenkins', {
      storageClassName: 'manual',
      accessModes: ['ReadOnlyMany'],
      hostPath: { path: '/mnt/data' },
    });
    const taken = volume('taken', {
      storageClassName: 'manual',
      accessModes: ['ReadWriteOnce'],
      hostPath: { path: '/mnt/other' },
      claimRef: { name: 'someone-else' },
    });
    expect(ruleHits([rolling, readOnly, taken, manualClaim], RULE)).toEqual([hit('error')]);
  });

  // sohaib1khan/kubernetes_craft (held-out-337): Skaffold_Deployments/nginx_app_test, a rolling
  // Deployment on claim nginx-pvc of no class; Skaffold_Deployments/wikijs writes hostPath volume
  // wikijs-pv of no class and, beside it, claim wikijs-pvc with `volumeName: wikijs-pv`.
  test('real world: a volume another claim names by volumeName is that claim’s, not free for a claim of its class', () => {
    const noClass = claim('jenkins-claim', { storageClassName: 'manual', accessModes: ['ReadWriteOnce'] });
    const named = volume('wikijs-pv', {
      storageClassName: 'manual',
      capacity: { storage: '10Gi' },
      accessModes: ['ReadWriteOnce'],
      hostPath: { path: '/srv/wikijs' },
    });
    const naming = claim('wikijs-pvc', {
      storageClassName: 'manual',
      volumeName: 'wikijs-pv',
      accessModes: ['ReadWriteOnce'],
    });
    const objects = (...extra: Array<Record<string, unknown>>) =>
      validateObjects(
        [
          { object: rolling, source: { file: 'Skaffold_Deployments/nginx_app_test/k8s/nginx-deployment.yaml' } },
          { object: noClass, source: { file: 'Skaffold_Deployments/nginx_app_test/k8s/nginx-deployment.yaml' } },
          ...extra.map((object) => ({ object, source: { file: 'Skaffold_Deployments/wikijs/k8s/deployment.yaml' } })),
        ],
        {},
      ).findings.filter((finding) => finding.rule === RULE);
    // Without the naming claim the volume is free, within reach, and binds: no attach, no error.
    expect(objects(named)).toEqual([]);
    expect(objects(named, naming).map((f) => [f.object.kind, f.object.name, f.path, f.severity])).toEqual([
      ['Deployment', 'jenkins', path, 'error'],
    ]);
  });

  // dragoneena12/k8s-server-settings (held-out-31): docker-mailserver's claim is written without a
  // namespace (applied with -n), and storage/docker-mailserver-storage.yaml pre-binds a local PV on
  // node2 to it by claimRef {namespace: docker-mailserver, name: docker-mailserver}.
  test('real world: a claim without a namespace is the one a volume claims by name in any namespace', () => {
    const localVolume = (claimNamespace: string) =>
      volume('docker-mailserver-pv', {
        storageClassName: 'manual',
        accessModes: ['ReadWriteOnce'],
        claimRef: { namespace: claimNamespace, name: 'jenkins-claim' },
        local: { path: '/mnt/sda/data/docker-mailserver' },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node2'] }] },
            ],
          },
        },
      });
    expect(ruleHits([rolling, localVolume('docker-mailserver'), manualClaim], RULE)).toEqual([]);
    // A claim whose namespace is written is bound only to a volume that claims it there.
    const namespaced = { ...manualClaim, metadata: { name: 'jenkins-claim', namespace: 'ci' } };
    const namespacedRolling = { ...rolling, metadata: { name: 'jenkins', namespace: 'ci' } };
    expect(ruleHits([namespacedRolling, localVolume('docker-mailserver'), namespaced], RULE)).toEqual([hit('error')]);
    expect(ruleHits([namespacedRolling, localVolume('ci'), namespaced], RULE)).toEqual([]);
  });

  // vladriabtsev/homelab (held-out-105): vbash/.../109-jenkins's claim devops-tools/jenkins-pv-claim
  // of class longhorn-nvme-ret, and k3s/jenkins/volume.yaml, an older project, pre-binding a local
  // volume of class local-storage to a claim of that name.
  test('real world: a volume pre-binds the claim its claimRef names only when their classes match', () => {
    const preBound = volume('jenkins-pv-volume', {
      storageClassName: 'local-storage',
      accessModes: ['ReadWriteOnce'],
      claimRef: { name: 'jenkins-claim' },
      local: { path: '/mnt' },
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['worker-node01'] }] },
          ],
        },
      },
    });
    const longhornClaim = claim('jenkins-claim', { storageClassName: 'longhorn', accessModes: ['ReadWriteOnce'] });
    const longhorn = storageClass('longhorn', 'driver.longhorn.io');
    expect(ruleHits([rolling, preBound, longhornClaim, longhorn], RULE)).toEqual([hit('error')]);
    const localClaim = claim('jenkins-claim', { storageClassName: 'local-storage', accessModes: ['ReadWriteOnce'] });
    expect(ruleHits([rolling, preBound, localClaim], RULE)).toEqual([]);
  });

  test('an nfs-subdir-external-provisioner class creates NFS volumes: a warning, not a Multi-Attach error', () => {
    const objects = [
      storageClass('nfs-client', 'k8s-sigs.io/nfs-subdir-external-provisioner'),
      claim('jenkins-claim', { storageClassName: 'nfs-client', accessModes: ['ReadWriteOnce'] }),
      rolling,
    ];
    expect(ruleHits(objects, RULE)).toEqual([hit('warning')]);
  });

  // cloudcafetech/kubesetup: the default StorageClass kubenfs-storage has `provisioner: kubenfs`,
  // the name the nfs-subdir-external-provisioner Deployment of nfs-storage/ declares in
  // PROVISIONER_NAME; demo/mongo-employee.yaml runs MongoDB as a rolling Deployment on a claim of it.
  // zgsm-ai/k8s-deploy (held-out-108) runs the provisioner from a mirror that shortens its name.
  test.each([
    ['gcr.io/k8s-staging-sig-storage/nfs-subdir-external-provisioner:v4.0.0'],
    ['registry.cn-hangzhou.aliyuncs.com/zhuge-ai/nfs-subdir-provisioner:v4.0.2'],
  ])(
    'real world: a class served by an NFS provisioner Deployment of the set (PROVISIONER_NAME) is a shared filesystem: %s',
    (image) => {
      const defaultClass = {
        ...storageClass('kubenfs-storage', 'kubenfs'),
        metadata: {
          name: 'kubenfs-storage',
          annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
        },
      };
      const provisioner = workload(
        'Deployment',
        'nfs-client-provisioner',
        podSpec([{ name: 'nfs-client-root', nfs: { server: '10.128.0.9', path: '/root/nfs/kubedata' } }], {
          containers: [
            {
              name: 'nfs-client-provisioner',
              image,
              env: [
                { name: 'PROVISIONER_NAME', value: 'kubenfs' },
                { name: 'NFS_SERVER', value: '10.128.0.9' },
              ],
            },
          ],
        }),
      );
      const mongo = workload('Deployment', 'jenkins', podSpec([claimVolume('jenkins-claim')]));
      const defaultClaim = claim('jenkins-claim', { accessModes: ['ReadWriteOnce'] });
      expect(ruleHits([defaultClass, provisioner, defaultClaim, mongo], RULE)).toEqual([hit('warning')]);
      // Without the provisioner's Deployment, `kubenfs` is a provisioner ballast does not know: block storage.
      expect(ruleHits([defaultClass, defaultClaim, mongo], RULE)).toEqual([hit('error')]);
    },
  );

  // maguowei/kube-stack elastic/filebeat/{daemonset,pvc}.yaml (held-out-124): a filebeat DaemonSet
  // keeps its registry on one ReadWriteOnce local-path claim.
  test('real world: a DaemonSet on a volume that lives on one node is refused: its pods on the other nodes stay Pending', () => {
    const localPath = storageClass('local-path', 'rancher.io/local-path');
    const registry = claim('filebeat', { storageClassName: 'local-path', accessModes: ['ReadWriteOnce'] });
    const filebeat = workload('DaemonSet', 'filebeat', podSpec([claimVolume('filebeat')]));
    expect(ruleHits([filebeat, registry, localPath], RULE)).toEqual([
      { kind: 'DaemonSet', name: 'filebeat', path, severity: 'error', suppressed: false },
    ]);
    expect(findingsFor([filebeat, registry, localPath]).find((f) => f.rule === RULE)?.message).toContain(
      'volume node affinity conflict',
    );
    // A Deployment's pods all go to the volume's node; a DaemonSet held to one node runs one pod.
    const deployment = workload('Deployment', 'filebeat', podSpec([claimVolume('filebeat')]), { replicas: 3 });
    expect(ruleHits([deployment, registry, localPath], RULE)).toEqual([]);
    const oneNode = workload(
      'DaemonSet',
      'filebeat',
      podSpec([claimVolume('filebeat')], { nodeSelector: { 'kubernetes.io/hostname': 'node-1' } }),
    );
    expect(ruleHits([oneNode, registry, localPath], RULE)).toEqual([]);
  });

  // doohee323/tz-k8s-elk tz-local/resource/elk (held-out-325): filebeat's claim binds a local volume
  // whose node affinity lists all three Vagrant nodes (a shared folder each of them has).
  test('real world: a local volume whose affinity lists several hostnames does not hold a DaemonSet to one node', () => {
    const local = (hostnames: string[]) =>
      volume('tz-pv', {
        storageClassName: 'local-storage',
        capacity: { storage: '10Gi' },
        accessModes: ['ReadWriteOnce'],
        local: { path: '/vagrant/data' },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: hostnames }] },
            ],
          },
        },
      });
    const tzClaim = claim('tz-pvc', { storageClassName: 'local-storage', accessModes: ['ReadWriteOnce'] });
    const filebeat = workload('DaemonSet', 'filebeat', podSpec([claimVolume('tz-pvc')]));
    expect(ruleHits([filebeat, tzClaim, local(['kube-master', 'kube-node-1', 'kube-node-2'])], RULE)).toEqual([]);
    expect(ruleHits([filebeat, tzClaim, local(['kube-node-1'])], RULE)).toEqual([
      { kind: 'DaemonSet', name: 'filebeat', path, severity: 'error', suppressed: false },
    ]);
  });
});

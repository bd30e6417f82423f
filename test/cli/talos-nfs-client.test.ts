import * as path from 'path';
import { lint } from '../../cli/lint-command';
import { tempTree } from './run-cli';

const RULE = 'nfs-volume-without-node-prerequisite';

// rathix/fleet-infra (held-out-13) at 5d6a16bd: a Talos cluster (talos/talconfig.yaml, talhelper)
// whose media library is a static in-tree NFS PersistentVolume, mounted by jellyfin through a claim.
const TALCONFIG = `clusterName: production
talosVersion: v1.13.5
kubernetesVersion: v1.36.2
endpoint: https://kube.example.com:6443
nodes:
  - hostname: tal-1
    ipAddress: 192.168.1.11
    controlPlane: true
`;
const PERSISTENT_VOLUME = `apiVersion: v1
kind: PersistentVolume
metadata:
  name: servarr-jellyfin-media-nfs
spec:
  capacity:
    storage: 2000Gi
  accessModes:
    - ReadWriteMany
  persistentVolumeReclaimPolicy: Retain
  mountOptions:
    - nfsvers=4
    - hard
  nfs:
    server: 192.168.1.21
    path: /mnt/hpool/media
`;
const CLAIM = `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: servarr-jellyfin-media
  namespace: servarr
spec:
  accessModes:
    - ReadWriteMany
  storageClassName: ""
  volumeName: servarr-jellyfin-media-nfs
  resources:
    requests:
      storage: 2000Gi
`;
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: jellyfin
  namespace: servarr
spec:
  replicas: 1
  strategy:
    type: Recreate
  selector:
    matchLabels: {app: jellyfin}
  template:
    metadata:
      labels: {app: jellyfin}
    spec:
      containers:
        - name: jellyfin
          image: docker.io/jellyfin/jellyfin:10.11.11
          volumeMounts: [{name: media, mountPath: /media}]
      volumes:
        - name: media
          persistentVolumeClaim:
            claimName: servarr-jellyfin-media
        - name: cache
          nfs: {server: 192.168.1.21, path: /mnt/hpool/cache}
`;
/** A Talos machine configuration patch, the other way a repository shows its nodes run Talos. */
const TALOS_PATCH = `machine:
  kubelet:
    extraArgs:
      rotate-server-certificates: "true"
`;

/** Stuhlmuller/homelab (held-out-204) .talos/patches/worker-cordium-user-namespaces.yaml: a patch of sysctls only. */
const TALOS_SYSCTL_PATCH = `machine:
  sysctls:
    user.max_user_namespaces: "28633"
`;

/**
 * vehagn/homelab (held-out-84) tofu/kubernetes/talos/image/schematic.yaml: the Image Factory
 * schematic its Talos node images are built from (the machine configurations are Terraform templates).
 */
const IMAGE_SCHEMATIC = `customization:
  systemExtensions:
    officialExtensions:
      - siderolabs/i915-ucode
      - siderolabs/qemu-guest-agent
`;

/**
 * kreativmonkey/homelab-gitops (held-out-276) infrastructure/overlays/main/system-upgrade-controller/talos-plan.yaml:
 * a system-upgrade-controller Plan that upgrades every node with talosctl (shortened).
 */
const TALOS_UPGRADE_PLAN = `apiVersion: upgrade.cattle.io/v1
kind: Plan
metadata:
  name: talos
  namespace: system-upgrade
spec:
  concurrency: 1
  serviceAccountName: system-upgrade
  version: v1.13.8
  nodeSelector:
    matchLabels:
      kubernetes.io/os: linux
  upgrade:
    image: ghcr.io/siderolabs/talosctl:v1.13.8
    command: [/talosctl]
    args:
      - upgrade
      - --image=factory.talos.dev/nocloud-installer/10f9392d7091b30abf573524649756e5bc894f653af525836e9ab0297f301fc2:$(SYSTEM_UPGRADE_PLAN_LATEST_VERSION)
`;

/** The k3s upgrade Plan of system-upgrade-controller's own examples: says nothing of Talos. */
const K3S_UPGRADE_PLAN = `apiVersion: upgrade.cattle.io/v1
kind: Plan
metadata:
  name: server-plan
  namespace: system-upgrade
spec:
  concurrency: 1
  serviceAccountName: system-upgrade
  upgrade:
    image: rancher/k3s-upgrade
  channel: https://update.k3s.io/v1-release/channels/stable
`;

const nfsFindings = (files: Record<string, string>) => {
  const { dir, cleanup } = tempTree(files);
  try {
    return lint([dir], { cwd: dir })
      .findings.filter((f) => f.rule === RULE)
      .map((f) => ({ file: path.relative(dir, f.file ?? ''), path: f.path, severity: f.severity, message: f.message }));
  } finally {
    cleanup();
  }
};

const APP = {
  'apps/servarr-common/pv.yaml': PERSISTENT_VOLUME,
  'apps/servarr-common/pvc-media.yaml': CLAIM,
  'apps/jellyfin/deployment.yaml': DEPLOYMENT,
};

describe('in-tree NFS on Talos nodes, whose kubelet image carries the NFS client', () => {
  test('a document with a machine key that is not Talos-shaped says nothing of the nodes', () => {
    const notTalos = 'machine:\n  sysctls: {a: b}\nplaybook: site.yml\n';
    expect(nfsFindings({ ...APP, 'ansible/vars.yaml': notTalos }).map((f) => f.severity)).toEqual([
      'warning',
      'error',
      'error',
    ]);
  });

  test('an upgrade Plan of another operating system (k3s) says nothing of the nodes', () => {
    expect(nfsFindings({ ...APP, 'system-upgrade/k3s-plan.yaml': K3S_UPGRADE_PLAN }).map((f) => f.severity)).toEqual([
      'warning',
      'error',
      'error',
    ]);
  });

  // nmourapt/homelab kubernetes/omni/templates/homelab-cluster.yaml (held-out-501): the Omni cluster
  // template `omnictl cluster template sync` reads; every machine Omni manages runs Talos.
  const OMNI_TEMPLATE = [
    'kind: Cluster',
    'name: homelab',
    'kubernetes:',
    '  version: v1.35.0',
    'talos:',
    '  version: v1.12.3',
    'systemExtensions:',
    '  - siderolabs/iscsi-tools',
    '---',
    'kind: ControlPlane',
    'machines:',
    '  - b2b24080-3eaf-11ef-a623-226974e21f00',
    '',
  ].join('\n');

  test('without Talos node configuration in the input, the volumes are errors and the claim user gets a pointer', () => {
    expect(nfsFindings(APP).map(({ message: _message, ...finding }) => finding)).toEqual([
      {
        file: 'apps/jellyfin/deployment.yaml',
        path: 'spec.template.spec.volumes[0].persistentVolumeClaim',
        severity: 'warning',
      },
      { file: 'apps/jellyfin/deployment.yaml', path: 'spec.template.spec.volumes[1].nfs', severity: 'error' },
      { file: 'apps/servarr-common/pv.yaml', path: 'spec.nfs', severity: 'error' },
    ]);
  });

  test.each([
    ['a talhelper talconfig.yaml', 'talos/talconfig.yaml', TALCONFIG],
    ['a Talos machine configuration patch', 'talos/patches/kubelet.yaml', TALOS_PATCH],
    ['an Image Factory schematic (real world)', 'tofu/talos/image/schematic.yaml', IMAGE_SCHEMATIC],
    ['a machine patch of sysctls only (real world)', '.talos/patches/worker-sysctls.yaml', TALOS_SYSCTL_PATCH],
    ['a talosctl upgrade Plan (real world)', 'system-upgrade-controller/talos-plan.yaml', TALOS_UPGRADE_PLAN],
    ['an Omni cluster template (real world)', 'kubernetes/omni/templates/homelab-cluster.yaml', OMNI_TEMPLATE],
  ])(
    'with %s in the input, each volume is a warning that says why, and the pointer is dropped',
    (_what, file, text) => {
      const findings = nfsFindings({ ...APP, [file]: text });
      expect(findings.map(({ message: _message, ...finding }) => finding)).toEqual([
        { file: 'apps/jellyfin/deployment.yaml', path: 'spec.template.spec.volumes[1].nfs', severity: 'warning' },
        { file: 'apps/servarr-common/pv.yaml', path: 'spec.nfs', severity: 'warning' },
      ]);
      for (const finding of findings) {
        expect(finding.message).toContain('The input configures Talos nodes (');
        expect(finding.message).toContain(
          `${file}), whose kubelet image carries the NFS client: the mount fails only on a node that is not Talos.`,
        );
      }
    },
  );
});

// ngalaiko/homelab (held-out-357): k3os/master.config.yaml and worker.config.yaml configure the
// nodes (k3OS, whose base image installs nfs-utils), and k8s/nfs-client/deployment.yaml mounts NFS inline.
describe('in-tree NFS on k3OS nodes, whose base image installs the NFS client', () => {
  const K3OS_CONFIG = `hostname: ""
ssh_authorized_keys:
  - "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExample"
k3os:
  ntp_servers:
    - 0.us.pool.ntp.org
  k3s_args:
    - server
    - --cluster-init
    - "--disable=traefik"
`;

  test('real world: a k3OS node configuration in the input makes each volume a warning that says why', () => {
    const findings = nfsFindings({ ...APP, 'k3os/master.config.yaml': K3OS_CONFIG });
    expect(findings.map(({ message: _message, ...finding }) => finding)).toEqual([
      { file: 'apps/jellyfin/deployment.yaml', path: 'spec.template.spec.volumes[1].nfs', severity: 'warning' },
      { file: 'apps/servarr-common/pv.yaml', path: 'spec.nfs', severity: 'warning' },
    ]);
    for (const finding of findings)
      expect(finding.message).toContain(
        'k3os/master.config.yaml), whose base image installs the NFS client (nfs-utils): the mount fails only on a node that is not k3OS.',
      );
  });

  test("a k3os key without any of k3OS's own settings says nothing of the nodes", () => {
    const notK3os = 'k3os:\n  enabled: true\n';
    expect(nfsFindings({ ...APP, 'values.yaml': notK3os }).map((f) => f.severity)).toEqual([
      'warning',
      'error',
      'error',
    ]);
  });
});

// Dbaker1298/dbaker-daskhub (held-out-526): eksctl/cluster-config.yaml runs managed node groups on
// the default (EKS-optimized Amazon Linux) AMI, which installs nfs-utils; kubectl/efs-pv.yaml is an
// in-tree NFS PersistentVolume on the EFS file system.
describe('in-tree NFS on EKS-optimized Amazon Linux nodes, whose AMI installs the NFS client', () => {
  const clusterConfig = (nodeGroup: string) => `apiVersion: eksctl.io/v1alpha5
kind: ClusterConfig
metadata:
  name: daskhub-dev
  region: us-west-2
  version: "1.24"
managedNodeGroups:
  - name: ng-managed-ondemand
    instanceType: t3a.medium
${nodeGroup}`;

  test('real world: an eksctl ClusterConfig on the default AMI makes each volume a warning that says why', () => {
    const findings = nfsFindings({ ...APP, 'eksctl/cluster-config.yaml': clusterConfig('') });
    expect(findings.map(({ message: _message, ...finding }) => finding)).toEqual([
      { file: 'apps/jellyfin/deployment.yaml', path: 'spec.template.spec.volumes[1].nfs', severity: 'warning' },
      { file: 'apps/servarr-common/pv.yaml', path: 'spec.nfs', severity: 'warning' },
    ]);
    for (const finding of findings)
      expect(finding.message).toContain(
        'eksctl/cluster-config.yaml), whose AMI installs the NFS client (nfs-utils): the mount fails only on a node that is not EKS-optimized Amazon Linux.',
      );
    const al2023 = nfsFindings({
      ...APP,
      'eksctl/cluster-config.yaml': clusterConfig('    amiFamily: AmazonLinux2023\n'),
    });
    expect(al2023.map((f) => f.severity)).toEqual(['warning', 'warning']);
  });

  test('node groups on Ubuntu, Bottlerocket or a custom AMI say nothing of the nodes', () => {
    for (const nodeGroup of [
      '    amiFamily: Ubuntu2204\n',
      '    amiFamily: Bottlerocket\n',
      '    ami: ami-0123456789abcdef0\n',
    ])
      expect(
        nfsFindings({ ...APP, 'eksctl/cluster-config.yaml': clusterConfig(nodeGroup) }).map((f) => f.severity),
      ).toEqual(['warning', 'error', 'error']);
  });
});

// machacamoya/pruebas-openshift etc/kubernetes/manifests (held-out-201): an nfs-client-provisioner
// Deployment with an inline NFS volume, beside the Routes of the apps it serves on OpenShift.
describe('in-tree NFS beside OpenShift objects, whose nodes mount NFS with no install step', () => {
  const PROVISIONER = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nfs-client-provisioner
spec:
  replicas: 1
  strategy:
    type: Recreate
  selector:
    matchLabels: {app: nfs-client-provisioner}
  template:
    metadata:
      labels: {app: nfs-client-provisioner}
    spec:
      containers:
        - name: nfs-client-provisioner
          image: k8s.gcr.io/sig-storage/nfs-subdir-external-provisioner:v4.0.2
      volumes:
        - name: nfs-client-root
          nfs: {server: 192.168.130.1, path: /srv/nfs}
`;
  const ROUTE = `apiVersion: route.openshift.io/v1
kind: Route
metadata:
  name: python-flask
spec:
  to: {kind: Service, name: python-flask}
`;

  test('real world: a Route in the same directory makes the volume a warning that says why', () => {
    const findings = nfsFindings({
      'etc/kubernetes/manifests/deployment.yaml': PROVISIONER,
      'etc/kubernetes/manifests/python-flask-route.yaml': ROUTE,
    });
    expect(findings.map(({ message: _message, ...finding }) => finding)).toEqual([
      {
        file: 'etc/kubernetes/manifests/deployment.yaml',
        path: 'spec.template.spec.volumes[0].nfs',
        severity: 'warning',
      },
    ]);
    expect(findings[0]?.message).toContain('Its directory holds OpenShift objects (Route python-flask in ');
    expect(findings[0]?.message).toContain("OpenShift's nodes mount NFS with no install step");
  });

  test('an OpenShift object in another directory (a variant beside a plain one) changes nothing', () => {
    const findings = nfsFindings({
      'kubernetes/deployment.yaml': PROVISIONER,
      'openshift/route.yaml': ROUTE,
    });
    expect(findings.map((finding) => [finding.file, finding.severity])).toEqual([
      ['kubernetes/deployment.yaml', 'error'],
    ]);
  });

  // jtcressy/KubeConfigs storage/nfs (held-out-364): external-storage's nfs-client files, with its
  // openshift-clusterrole.yaml, a ClusterRole of apiVersion v1 that only OpenShift 3 served.
  test('real world: a ClusterRole of apiVersion v1 in the same directory is OpenShift too; one of rbac.authorization.k8s.io is not', () => {
    const clusterRole = (apiVersion: string) =>
      `kind: ClusterRole\napiVersion: ${apiVersion}\nmetadata: {name: nfs-client-provisioner-runner}\nrules: []\n`;
    const severities = (apiVersion: string) =>
      nfsFindings({
        'storage/nfs/deployment.yaml': PROVISIONER,
        'storage/nfs/openshift-clusterrole.yaml': clusterRole(apiVersion),
      }).map((finding) => [finding.path, finding.severity]);
    expect(severities('v1')).toEqual([['spec.template.spec.volumes[0].nfs', 'warning']]);
    expect(severities('rbac.authorization.k8s.io/v1')).toEqual([['spec.template.spec.volumes[0].nfs', 'error']]);
  });

  // adfinis/openshift-etcd-backup backup-rbac.yaml (held-out-383): a Role whose one rule is `use` of
  // the privileged SecurityContextConstraints, beside the backup's NFS PersistentVolume.
  test('real world: a Role granting only on OpenShift APIs is OpenShift; one that also grants on core is not', () => {
    // One rule per API group given ("" is core).
    const role = (groups: string[]) =>
      `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: use-privileged-scc}\nrules:\n` +
      groups
        .map((group) => `  - apiGroups: ["${group}"]\n    resources: [securitycontextconstraints]\n    verbs: [use]\n`)
        .join('');
    const severities = (groups: string[]) =>
      nfsFindings({ 'deployment.yaml': PROVISIONER, 'backup-rbac.yaml': role(groups) }).map((finding) => [
        finding.path,
        finding.severity,
      ]);
    expect(severities(['security.openshift.io'])).toEqual([['spec.template.spec.volumes[0].nfs', 'warning']]);
    expect(severities(['security.openshift.io', ''])).toEqual([['spec.template.spec.volumes[0].nfs', 'error']]);
  });
});

// PeterPhan2005/Devops-final-project k8s/nfs-pv.yaml (held-out-225): an in-tree NFS PersistentVolume
// for a Filestore share, beside the app's GKE BackendConfig and ManagedCertificate.
describe('in-tree NFS beside GKE objects, whose nodes mount NFS with no install step', () => {
  const FILESTORE_PV = `apiVersion: v1
kind: PersistentVolume
metadata:
  name: doc-system-uploads-pv
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteMany]
  persistentVolumeReclaimPolicy: Retain
  mountOptions: [nfsvers=3]
  nfs: {server: 10.0.0.2, path: /doc_uploads}
`;
  const BACKEND_CONFIG = `apiVersion: cloud.google.com/v1
kind: BackendConfig
metadata:
  name: backend-backend
  namespace: doc-system
spec:
  healthCheck: {requestPath: /health}
`;
  const MANAGED_CERTIFICATE = `apiVersion: networking.gke.io/v1
kind: ManagedCertificate
metadata:
  name: doc-system-cert
  namespace: doc-system
spec:
  domains: [docs.example.com]
`;

  test.each([
    ['a cloud.google.com BackendConfig', BACKEND_CONFIG, 'BackendConfig backend-backend'],
    ['a networking.gke.io ManagedCertificate', MANAGED_CERTIFICATE, 'ManagedCertificate doc-system-cert'],
  ])('real world: %s in the same directory makes the volume a warning that says why', (_what, marker, named) => {
    const findings = nfsFindings({ 'k8s/nfs-pv.yaml': FILESTORE_PV, 'k8s/ingress.yaml': marker });
    expect(findings.map(({ message: _message, ...finding }) => finding)).toEqual([
      { file: 'k8s/nfs-pv.yaml', path: 'spec.nfs', severity: 'warning' },
    ]);
    expect(findings[0]?.message).toContain(`Its directory holds GKE objects (${named} in `);
    expect(findings[0]?.message).toContain("GKE's nodes mount NFS with no install step");
  });

  test('a GKE object in another directory changes nothing', () => {
    const findings = nfsFindings({ 'k8s/nfs-pv.yaml': FILESTORE_PV, 'gke/ingress.yaml': BACKEND_CONFIG });
    expect(findings.map((finding) => [finding.file, finding.severity])).toEqual([['k8s/nfs-pv.yaml', 'error']]);
  });
});

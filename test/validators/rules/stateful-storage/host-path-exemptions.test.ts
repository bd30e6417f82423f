import { ruleHits } from '../../../support/findings';
import { podSpec, workload } from './fixtures';

const RULE = 'host-path-for-application-data';
const hostPath = (path: string, name = 'data') => ({ name, hostPath: { path } });
const mounting = (volumes: unknown[], mounts: unknown[], extra: Record<string, unknown> = {}) => ({
  ...podSpec(volumes, extra),
  containers: [{ name: 'app', image: 'busybox', volumeMounts: mounts }],
});

describe('host-path-for-application-data: what is not application data', () => {
  test('node agents: a DaemonSet and a hostPID pod keep nothing of an application on the host', () => {
    expect(ruleHits([workload('DaemonSet', 'fluent-bit', podSpec([hostPath('/data/buffer')]))], RULE)).toEqual([]);
    expect(
      ruleHits([workload('Deployment', 'node-debugger', podSpec([hostPath('/data/x')], { hostPID: true }))], RULE),
    ).toEqual([]);
  });

  test('a control-plane static pod in kube-system (etcd) is exempt; the same pod elsewhere is reported', () => {
    const etcd = (namespace: string) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'etcd-node-1', namespace, labels: { component: 'etcd', tier: 'control-plane' } },
      spec: {
        hostNetwork: true,
        containers: [
          {
            name: 'etcd',
            image: 'registry.k8s.io/etcd:3.5.15-0',
            volumeMounts: [{ name: 'data', mountPath: '/data' }],
          },
        ],
        volumes: [hostPath('/srv/etcd-data')],
      },
    });
    expect(ruleHits([etcd('kube-system')], RULE)).toEqual([]);
    expect(ruleHits([etcd('default')], RULE)).toEqual([
      expect.objectContaining({ kind: 'Pod', path: 'spec.volumes[0].hostPath' }),
    ]);
  });

  // mihailgmihaylov/kubernetes-the-hard-way manifests/etcd.yaml (held-out-75), after kube-up's etcd
  // manifest: no tier label, but the node-critical priority class of a static pod, data in /var/etcd/data.
  test('real world: a kube-system static pod of priority system-node-critical is exempt too', () => {
    const etcdServer = (priorityClassName: string) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'etcd-server', namespace: 'kube-system', labels: { 'k8s-app': 'etcd-server' } },
      spec: {
        priorityClassName,
        hostNetwork: true,
        containers: [
          {
            name: 'etcd-container',
            image: 'registry.k8s.io/etcd:3.5.15-0',
            volumeMounts: [{ name: 'data', mountPath: '/data' }],
          },
        ],
        volumes: [hostPath('/var/etcd/data')],
      },
    });
    expect(ruleHits([etcdServer('system-node-critical')], RULE)).toEqual([]);
    expect(ruleHits([etcdServer('high-priority')], RULE)).toEqual([
      expect.objectContaining({ kind: 'Pod', path: 'spec.volumes[0].hostPath' }),
    ]);
  });

  // hfrog/kube-deploy manifests/kube-addon-manager.yaml (held-out-82), after kube-up's manifest of
  // Kubernetes 1.6: a kube-system static pod marked critical the way it was before priority classes.
  test('real world: a kube-system static pod annotated critical-pod is exempt; the annotation elsewhere is not', () => {
    const addonManager = (namespace: string) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'kube-addon-manager',
        namespace,
        annotations: { 'scheduler.alpha.kubernetes.io/critical-pod': '' },
        labels: { component: 'kube-addon-manager' },
      },
      spec: {
        hostNetwork: true,
        containers: [
          {
            name: 'kube-addon-manager',
            image: 'gcr.io/google-containers/kube-addon-manager:v6.4-beta.2',
            volumeMounts: [{ name: 'data', mountPath: '/data' }],
          },
        ],
        volumes: [hostPath('/srv/kubernetes', 'data')],
      },
    });
    expect(ruleHits([addonManager('kube-system')], RULE)).toEqual([]);
    expect(ruleHits([addonManager('tools')], RULE)).toEqual([
      expect.objectContaining({ kind: 'Pod', path: 'spec.volumes[0].hostPath' }),
    ]);
  });

  test('a host path every container mounts read-only is exempt; one writable mount makes it data', () => {
    const readOnly = mounting([hostPath('/data/config')], [{ name: 'data', mountPath: '/config', readOnly: true }]);
    expect(ruleHits([workload('Deployment', 'app', readOnly)], RULE)).toEqual([]);
    const writable = mounting(
      [hostPath('/data/config')],
      [
        { name: 'data', mountPath: '/config', readOnly: true },
        { name: 'data', mountPath: '/state' },
      ],
    );
    expect(ruleHits([workload('Deployment', 'app', writable)], RULE)).toEqual([
      expect.objectContaining({ path: 'spec.template.spec.volumes[0].hostPath', severity: 'warning' }),
    ]);
  });

  // sergpsw/kubernetes-cluster manifests/mysql-deployment.yml (held-out-312): a Recreate MySQL
  // Deployment declares a hostPath volume (the Vagrant synced folder) that no container mounts.
  test('real world: a host path no container mounts holds no data; in a pod spec without containers it still counts', () => {
    const unmounted = mounting([hostPath('/var/www/vagrant')], [{ name: 'mysql-data', mountPath: '/var/lib/mysql' }]);
    expect(ruleHits([workload('Deployment', 'mysql', unmounted)], RULE)).toEqual([]);
    const fragment = { volumes: [hostPath('/var/www/vagrant')] };
    expect(ruleHits([workload('Deployment', 'mysql', fragment)], RULE)).toEqual([
      expect.objectContaining({ path: 'spec.template.spec.volumes[0].hostPath', severity: 'warning' }),
    ]);
  });

  // open-policy-agent/gatekeeper-library pod-security-policy/host-filesystem/samples/psp-host-filesystem/disallowed_ephemeral.yaml
  // (held-out-281): the only mount of the host path is an ephemeral container's, read-only.
  test('real world: a host path only an ephemeral container mounts, read-only, is exempt; writable, it is data', () => {
    const pod = (readOnly: boolean) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'nginx-host-filesystem' },
      spec: {
        ephemeralContainers: [
          { name: 'nginx', image: 'nginx', volumeMounts: [{ mountPath: '/cache', name: 'cache-volume', readOnly }] },
        ],
        volumes: [{ name: 'cache-volume', hostPath: { path: '/tmp' } }],
      },
    });
    expect(ruleHits([pod(true)], RULE)).toEqual([]);
    expect(ruleHits([pod(false)], RULE)).toEqual([
      expect.objectContaining({ kind: 'Pod', path: 'spec.volumes[0].hostPath', severity: 'warning' }),
    ]);
  });

  test.each([
    '/var/lib/etcd',
    // jenningsloy318/Docker-Cluster Kubernetes/manifests/192.168.59.201/etcd.yaml (held-out-284): an
    // etcd static pod mounting its certificates from Kubernetes the Hard Way's directory.
    '/var/lib/kubernetes/certs',
    // VollcomDigital/hetzner-k8s-boilerplate kubernetes/backup/etcd-snapshot.yaml (held-out-299): a
    // CronJob copying k3s's etcd snapshots from its data directory.
    '/var/lib/rancher/k3s',
    '/var/lib/rancher/rke2/server/db/snapshots',
    '/lib/modules',
    '/var/lib/calico/nodename',
    'C:\\var\\lib\\kubelet',
    'C:/etc/kubernetes',
    '\\\\.\\pipe\\containerd-containerd',
  ])('the system path %s is not application data', (path) => {
    expect(ruleHits([workload('Deployment', 'app', podSpec([hostPath(path)]))], RULE)).toEqual([]);
  });

  // yashbhangale/My-HomeLab kavita/shared-media-pvc.yaml (held-out-442): a hostPath PersistentVolume of
  // the node's media library, bound by a ReadOnlyMany claim that the Kavita Deployment mounts read-only.
  test('real world: a hostPath PersistentVolume that every pod mounting it through a claim mounts read-only is exempt', () => {
    const volume = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'kavita-shared-media', labels: { app: 'kavita', type: 'shared-media' } },
      spec: {
        capacity: { storage: '200Gi' },
        accessModes: ['ReadOnlyMany'],
        storageClassName: 'shared-media',
        hostPath: { path: '/srv/media', type: 'Directory' },
      },
    };
    const claim = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'kavita-shared-media', namespace: 'kavita' },
      spec: {
        accessModes: ['ReadOnlyMany'],
        storageClassName: 'shared-media',
        resources: { requests: { storage: '200Gi' } },
        selector: { matchLabels: { app: 'kavita', type: 'shared-media' } },
      },
    };
    const reader = (name: string, readOnlyMount: boolean, readOnlyClaim = false) => ({
      ...workload(
        'Deployment',
        name,
        mounting(
          [{ name: 'media', persistentVolumeClaim: { claimName: 'kavita-shared-media', readOnly: readOnlyClaim } }],
          [{ name: 'media', mountPath: '/books', readOnly: readOnlyMount }],
        ),
      ),
      metadata: { name, namespace: 'kavita' },
    });
    const onVolume = [
      expect.objectContaining({ kind: 'PersistentVolume', path: 'spec.hostPath', severity: 'warning' }),
    ];
    expect(ruleHits([volume, claim, reader('kavita', true)], RULE)).toEqual([]);
    // The claim volume's own readOnly makes every mount of it read-only.
    expect(ruleHits([volume, claim, reader('kavita', false, true)], RULE)).toEqual([]);
    // One pod that writes it is enough; and a volume no pod of the input mounts is judged as written.
    expect(ruleHits([volume, claim, reader('kavita', true), reader('importer', false)], RULE)).toEqual(onVolume);
    expect(ruleHits([volume, claim], RULE)).toEqual(onVolume);
  });

  // fujitatomoya/ros_k8s yaml/ros2-turtlesim.yaml (held-out-428): GUI Deployments that draw on the
  // node's display through the X server's socket directory, mounted writable.
  test('real world: the X server socket directory /tmp/.X11-unix is not application data; the rest of /tmp is', () => {
    expect(ruleHits([workload('Deployment', 'turtlesim', podSpec([hostPath('/tmp/.X11-unix')]))], RULE)).toEqual([]);
    expect(ruleHits([workload('Deployment', 'app', podSpec([hostPath('/tmp/app-data')]))], RULE)).toEqual([
      expect.objectContaining({ path: 'spec.template.spec.volumes[0].hostPath', severity: 'warning' }),
    ]);
  });
  // GoogleCloudPlatform/container-engine-accelerators gpudirect-tcpxo/nccl-test.yaml and
  // chechiachang/elk-kubernetes filebeat/7.3.1/nginx-deployment.yaml (held-out-547, held-out-541): GPU
  // pods mounting GKE's driver directory, and a Filebeat Deployment keeping its registry on the node.
  test("real world: GKE's /home/kubernetes/bin and Filebeat's registry are the node's, not application data", () => {
    const gpuTest = workload('Deployment', 'nccl-test', podSpec([hostPath('/home/kubernetes/bin/nvidia')]));
    expect(ruleHits([gpuTest], RULE)).toEqual([]);
    const shipper = workload('Deployment', 'nginx-filebeat', podSpec([hostPath('/var/lib/filebeat-data')]));
    expect(ruleHits([shipper], RULE)).toEqual([]);
    // Another directory under /home is a user's, and so application data.
    expect(ruleHits([workload('Deployment', 'app', podSpec([hostPath('/home/kubernetes-data')]))], RULE)).toEqual([
      expect.objectContaining({ path: 'spec.template.spec.volumes[0].hostPath', severity: 'warning' }),
    ]);
  });

  // brianinnes/PiClusterK3OS manifests/buildah/buildah.yaml (held-out-232): a privileged build pod on
  // the node's container storage (CRI-O, Podman and Buildah keep images in /var/lib/containers).
  test('real world: the container runtime storage /var/lib/containers is not application data; a directory beside it is', () => {
    expect(ruleHits([workload('Deployment', 'buildah', podSpec([hostPath('/var/lib/containers')]))], RULE)).toEqual([]);
    expect(ruleHits([workload('Deployment', 'app', podSpec([hostPath('/var/lib/containers-data')]))], RULE)).toEqual([
      expect.objectContaining({ path: 'spec.template.spec.volumes[0].hostPath', severity: 'warning' }),
    ]);
  });
});

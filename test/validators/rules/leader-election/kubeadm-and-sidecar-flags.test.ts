import { load, loadAll } from 'js-yaml';
import { ruleHits } from '../../../support/findings';

const options = { kubernetesVersion: '1.31' };

const csiProvisioner = (args: string[]) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'csi-provisioner', namespace: 'storage' },
  spec: {
    selector: { matchLabels: { app: 'p' } },
    template: {
      metadata: { labels: { app: 'p' } },
      spec: {
        containers: [{ name: 'csi-provisioner', image: 'registry.k8s.io/sig-storage/csi-provisioner:v1.6.0', args }],
      },
    },
  },
});

describe('leader election set through kubeadm extraArgs and sidecar flags', () => {
  test('kubeadm ClusterConfiguration extraArgs (v1beta3 map): a legacy lock and bad timings, at their fields', () => {
    const [configuration] = loadAll(`
apiVersion: kubeadm.k8s.io/v1beta3
kind: ClusterConfiguration
controllerManager:
  extraArgs: {leader-elect-resource-lock: endpoints}
scheduler:
  extraArgs: {leader-elect-lease-duration: 10s, leader-elect-renew-deadline: 15s}
`);
    expect(ruleHits([configuration], 'legacy-leader-election-lock', options)).toEqual([
      expect.objectContaining({ severity: 'error', path: 'controllerManager.extraArgs[leader-elect-resource-lock]' }),
    ]);
    expect(ruleHits([configuration], 'invalid-leader-election-timings', options)).toEqual([
      expect.objectContaining({ severity: 'error', path: 'scheduler.extraArgs[leader-elect-lease-duration]' }),
    ]);
  });

  test('Cluster API KubeadmControlPlane (v1beta4-style list): the lock at its list item', () => {
    const controlPlane = load(`
apiVersion: controlplane.cluster.x-k8s.io/v1beta2
kind: KubeadmControlPlane
metadata: {name: cp}
spec:
  kubeadmConfigSpec:
    clusterConfiguration:
      scheduler:
        extraArgs:
          - {name: bind-address, value: 0.0.0.0}
          - {name: leader-elect-resource-lock, value: configmapsleases}
`);
    expect(ruleHits([controlPlane], 'legacy-leader-election-lock', options)).toEqual([
      expect.objectContaining({ path: 'spec.kubeadmConfigSpec.clusterConfiguration.scheduler.extraArgs[1].value' }),
    ]);
  });

  test('CSI sidecars: --leader-election-type=endpoints refused, leases and sidecars without a lock flag accepted', () => {
    expect(
      ruleHits(
        [csiProvisioner(['--csi-address=$(ADDRESS)', '--enable-leader-election', '--leader-election-type=endpoints'])],
        'legacy-leader-election-lock',
        options,
      ),
    ).toEqual([expect.objectContaining({ kind: 'Deployment', path: 'spec.template.spec.containers[0].args[2]' })]);
    expect(
      ruleHits(
        [csiProvisioner(['--leader-election', '--leader-election-type=leases']), csiProvisioner(['--leader-election'])],
        'legacy-leader-election-lock',
        options,
      ),
    ).toEqual([]);
  });

  // kubernetes-csi/external-provisioner deploy/kubernetes/deployment.yaml at v1.6.0: leader
  // election on and no lock flag, where v1.x defaults --leader-election-type to endpoints.
  const upstreamV16 = (image: string, args: string[]) => {
    const deployment = csiProvisioner(args);
    deployment.spec.template.spec.containers[0]!.image = image;
    return deployment;
  };

  test('an old sidecar image with leader election on and no lock flag: a warning at the image (its default lock is Endpoints)', () => {
    expect(
      ruleHits(
        [
          upstreamV16('quay.io/k8scsi/csi-provisioner:v1.6.0', [
            '--csi-address=$(ADDRESS)',
            '--enable-leader-election',
          ]),
        ],
        'legacy-leader-election-lock',
        options,
      ),
    ).toEqual([
      {
        kind: 'Deployment',
        name: 'csi-provisioner',
        path: 'spec.template.spec.containers[0].image',
        severity: 'warning',
        suppressed: false,
      },
    ]);
    // csi-attacher v1.x: `--leader-election` on a ConfigMap lock.
    expect(
      ruleHits(
        [upstreamV16('quay.io/k8scsi/csi-attacher:v1.2.0', ['--csi-address=$(ADDRESS)', '--leader-election'])],
        'legacy-leader-election-lock',
        options,
      ),
    ).toHaveLength(1);
  });

  test('no warning with the lock flag set to leases, with a v2 image, or with a flag the old image does not have', () => {
    // kubernetes-sigs/azuredisk-csi-driver deploy/v1.1.0/csi-azuredisk-controller.yaml: v1.6.1 told to use leases.
    const hits = ruleHits(
      [
        upstreamV16('mcr.microsoft.com/oss/kubernetes-csi/csi-provisioner:v1.6.1', [
          '--enable-leader-election',
          '--leader-election-type=leases',
        ]),
        upstreamV16('registry.k8s.io/sig-storage/csi-provisioner:v2.0.0', ['--leader-election']),
        upstreamV16('quay.io/k8scsi/csi-provisioner:v1.6.0', ['--leader-election']),
      ],
      'legacy-leader-election-lock',
      options,
    );
    expect(hits).toEqual([]);
  });

  test("sidecar timing flags are checked like the control plane's", () => {
    const hits = ruleHits(
      [
        csiProvisioner([
          '--leader-election',
          '--leader-election-lease-duration=10s',
          '--leader-election-renew-deadline=10s',
        ]),
      ],
      'invalid-leader-election-timings',
      options,
    );
    expect(hits).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: expect.stringMatching(/^spec\.template\.spec\.containers\[0\]\.args\[[12]\]$/),
      }),
    ]);
  });
});

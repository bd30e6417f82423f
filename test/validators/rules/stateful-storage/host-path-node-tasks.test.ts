import { ruleHits } from '../../../support/findings';
import { podSpec, workload } from './fixtures';

const RULE = 'host-path-for-application-data';
const hostPathVolume = (path: string, type?: string) => ({
  name: 'data',
  hostPath: { path, ...(type ? { type } : {}) },
});

describe(`${RULE}: node tasks, CSI plugins and node-provided files`, () => {
  // rook deploy/examples/cleanup-job.yaml: a Job pinned to the node whose data directory it wipes.
  test('passes a Job pinned to one node: a node task, nothing of it needs to move', () => {
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'cleanup' },
      spec: {
        template: {
          spec: podSpec([hostPathVolume('/var/lib/rook')], {
            nodeSelector: { 'kubernetes.io/hostname': 'node-1' },
            restartPolicy: 'OnFailure',
          }),
        },
      },
    };
    expect(ruleHits([job], RULE)).toEqual([]);
  });

  // csi-driver-host-path deploy/kubernetes-1.34/hostpath/csi-hostpath-plugin.yaml: a StatefulSet.
  test('passes a CSI plugin that shares the kubelet’s directories with Bidirectional propagation', () => {
    const plugin = workload(
      'StatefulSet',
      'csi-hostpathplugin',
      {
        containers: [
          {
            name: 'plugin',
            image: 'hostpathplugin',
            volumeMounts: [
              { name: 'mountpoint-dir', mountPath: '/var/lib/kubelet/pods', mountPropagation: 'Bidirectional' },
              { name: 'data', mountPath: '/csi-data-dir' },
            ],
          },
        ],
        volumes: [
          { name: 'mountpoint-dir', hostPath: { path: '/var/lib/kubelet/pods' } },
          hostPathVolume('/var/lib/csi-hostpath-data/'),
        ],
      },
      { serviceName: 'csi-hostpathplugin' },
    );
    expect(ruleHits([plugin], RULE)).toEqual([]);
  });

  // cluster-autoscaler cloudprovider/bizflycloud: a kubeconfig file the node provides.
  test('passes a single configuration file (a kubeconfig, a certificate) and type File', () => {
    const autoscaler = workload(
      'Deployment',
      'cluster-autoscaler',
      podSpec([
        hostPathVolume('/var/lib/kubernetes/cluster.kubeconfig'),
        { ...hostPathVolume('/opt/ca'), name: 'ca', hostPath: { path: '/opt/ca', type: 'File' } },
      ]),
    );
    expect(ruleHits([autoscaler], RULE)).toEqual([]);
  });

  test('still warns on a Deployment writing a data directory on the node', () => {
    const server = workload('Deployment', 'smb-server', podSpec([hostPathVolume('/home/kubernetes/smbshare-volume')]));
    expect(ruleHits([server], RULE)).toEqual([
      {
        kind: 'Deployment',
        name: 'smb-server',
        path: 'spec.template.spec.volumes[0].hostPath',
        severity: 'warning',
        suppressed: false,
      },
    ]);
  });
});

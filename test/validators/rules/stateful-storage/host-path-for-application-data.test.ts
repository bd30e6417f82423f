import { findingsFor, ruleHits } from '../../../support/findings';
import { podSpec, volume, workload } from './fixtures';

const RULE = 'host-path-for-application-data';
const dataVolume = { name: 'data', hostPath: { path: '/data/rabbitmq', type: 'DirectoryOrCreate' } };
const hit = (kind: string, path: string, severity: string, name = 'app') => ({
  kind,
  name,
  path,
  severity,
  suppressed: false,
});
const POD_PATH = 'spec.template.spec.volumes[0].hostPath';

describe(RULE, () => {
  test('warns on a Deployment keeping data in a hostPath', () => {
    expect(ruleHits([workload('Deployment', 'app', podSpec([dataVolume]))], RULE)).toEqual([
      hit('Deployment', POD_PATH, 'warning'),
    ]);
  });

  test.each([
    ['nodeSelector', { nodeSelector: { 'kubernetes.io/hostname': 'node-3' } }],
    ['nodeName', { nodeName: 'node-3' }],
    [
      'required node affinity',
      {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-3'] }] },
              ],
            },
          },
        },
      },
    ],
  ])(
    'warns when the workload is pinned to one node by %s (incident 3), saying it cannot move (a risk, not a certain failure)',
    (_how, pinning) => {
      expect(ruleHits([workload('ReplicationController', 'app', podSpec([dataVolume], pinning))], RULE)).toEqual([
        hit('ReplicationController', POD_PATH, 'warning'),
      ]);
      expect(
        findingsFor([workload('ReplicationController', 'app', podSpec([dataVolume], pinning))])[0]?.message,
      ).toContain('is pinned to node node-3');
    },
  );

  // luksa/kubernetes-in-action-2nd-edition Chapter09/pod.quiz.hostpath.kind.yaml, as it is there.
  test('real world: the quiz Pod pinned by nodeName with MongoDB data in /tmp/quiz-data is a warning', () => {
    const quiz = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'quiz' },
      spec: {
        nodeName: 'kind-worker',
        volumes: [{ name: 'quiz-data', hostPath: { path: '/tmp/quiz-data' } }],
        containers: [
          {
            name: 'quiz-api',
            image: 'luksa/quiz-api:0.1',
            imagePullPolicy: 'IfNotPresent',
            ports: [{ name: 'http', containerPort: 8080 }],
          },
          { name: 'mongo', image: 'mongo:7', volumeMounts: [{ name: 'quiz-data', mountPath: '/data/db' }] },
        ],
      },
    };
    expect(ruleHits([quiz], RULE)).toEqual([hit('Pod', 'spec.volumes[0].hostPath', 'warning', 'quiz')]);
  });

  test('warns on a hostPath PersistentVolume, whether or not its node affinity names one host', () => {
    const pinned = volume('pinned', {
      accessModes: ['ReadWriteOnce'],
      hostPath: { path: '/mnt/data' },
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-1'] }] },
          ],
        },
      },
    });
    expect(
      ruleHits([volume('loose', { accessModes: ['ReadWriteOnce'], hostPath: { path: '/mnt/data' } }), pinned], RULE),
    ).toEqual([
      hit('PersistentVolume', 'spec.hostPath', 'warning', 'loose'),
      hit('PersistentVolume', 'spec.hostPath', 'warning', 'pinned'),
    ]);
  });

  test('passes DaemonSets and Deployments mounting system paths, sockets, and affinity to several hosts', () => {
    const system = [
      '/dev',
      '/sys',
      '/',
      '/var/lib/kubelet/plugins/rbd.csi.ceph.com',
      '/lib/modules/',
      '/run/mount',
      '/var/log/ceph',
      '/etc/selinux',
    ].map((path, i) => ({ name: `v${i}`, hostPath: { path } }));
    const socket = { name: 'docker', hostPath: { path: '/srv/docker.sock', type: 'Socket' } };
    const twoHosts = {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['a', 'b'] }] },
            ],
          },
        },
      },
    };
    expect(
      ruleHits(
        [
          workload('DaemonSet', 'csi-rbdplugin', podSpec(system)),
          workload('Deployment', 'provisioner', podSpec([...system, socket])),
        ],
        RULE,
      ),
    ).toEqual([]);
    expect(ruleHits([workload('Deployment', 'app', podSpec([dataVolume], twoHosts))], RULE)).toEqual([
      hit('Deployment', POD_PATH, 'warning'),
    ]);
  });
});

import { ruleHits } from '../support/findings';
import { customResourcePodSpecs } from '../../validators/pod-templates';

const nfsVolume = { name: 'code', nfs: { server: '192.168.7.89', path: '/data/code' } };
const podTemplate = { spec: { containers: [{ name: 'ascend', image: 'mindspeed:latest' }], volumes: [nfsVolume] } };

/** nakroy/k8s-yaml mindx-dl/train/pytorch (held-out-13): an AscendJob's Master and Worker pods mount in-tree NFS. */
const ascendJob = {
  apiVersion: 'mindxdl.gitee.com/v1',
  kind: 'AscendJob',
  metadata: { name: 'llama3-8b' },
  spec: {
    schedulerName: 'volcano',
    replicaSpecs: { Master: { replicas: 1, template: podTemplate }, Worker: { replicas: 1, template: podTemplate } },
  },
};

describe('pod templates of custom resources', () => {
  test('real world: the in-tree NFS volumes of an AscendJob’s replica templates are refused, at each template', () => {
    expect(ruleHits([ascendJob], 'nfs-volume-without-node-prerequisite')).toEqual([
      {
        kind: 'AscendJob',
        name: 'llama3-8b',
        path: 'spec.replicaSpecs.Master.template.spec.volumes[0].nfs',
        severity: 'error',
        suppressed: false,
      },
      {
        kind: 'AscendJob',
        name: 'llama3-8b',
        path: 'spec.replicaSpecs.Worker.template.spec.volumes[0].nfs',
        severity: 'error',
        suppressed: false,
      },
    ]);
  });

  test('finds templates in lists (Volcano Job tasks) and not in built-in groups or objects without containers', () => {
    const volcano = {
      apiVersion: 'batch.volcano.sh/v1alpha1',
      kind: 'Job',
      spec: { tasks: [{ template: podTemplate }] },
    };
    expect(customResourcePodSpecs(volcano).map((found) => found.path)).toEqual(['spec.tasks[0].template.spec']);
    const builtIn = { apiVersion: 'storage.k8s.io/v1', kind: 'Unknown', spec: { template: podTemplate } };
    const virtualMachine = {
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachine',
      spec: { template: { spec: { domain: { devices: {} }, volumes: [] } } },
    };
    expect([...customResourcePodSpecs(builtIn), ...customResourcePodSpecs(virtualMachine)]).toEqual([]);
  });

  // microsoft/hivedscheduler example/request/tf/request.yaml (held-out-73): a FrameworkController
  // Framework keeps each task role's pod at spec.taskRoles[].task.pod, and its pods mount in-tree NFS.
  test('real world: a Framework’s task pods (under `pod`, not `template`) are pod templates too', () => {
    const framework = {
      apiVersion: 'frameworkcontroller.microsoft.com/v1',
      kind: 'Framework',
      metadata: { name: 'hdtfdemo2' },
      spec: {
        executionType: 'Start',
        taskRoles: [
          { name: 'ps', taskNumber: 1, task: { pod: podTemplate } },
          { name: 'worker', taskNumber: 1, task: { pod: podTemplate } },
        ],
      },
    };
    expect(
      ruleHits([framework], 'nfs-volume-without-node-prerequisite').map((hit) => [hit.path, hit.severity]),
    ).toEqual([
      ['spec.taskRoles[0].task.pod.spec.volumes[0].nfs', 'error'],
      ['spec.taskRoles[1].task.pod.spec.volumes[0].nfs', 'error'],
    ]);
  });

  test('an alias bomb under spec (one node shared 9^9 ways) is searched node by node, not path by path', () => {
    let shared: unknown = { value: 'lol' };
    for (let level = 0; level < 9; level++) shared = new Array(9).fill(shared);
    const bomb = { apiVersion: 'example.com/v1', kind: 'Bomb', spec: { replicas: shared } };
    expect(customResourcePodSpecs(bomb)).toEqual([]);
  });
});

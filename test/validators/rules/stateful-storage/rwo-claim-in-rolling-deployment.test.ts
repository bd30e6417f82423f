import { findingsFor, ruleHits } from '../../../support/findings';
import { validateObjects } from '../../../../validators';
import { claim, claimVolume, podSpec, volume, workload } from './fixtures';

const RULE = 'rwo-claim-in-rolling-deployment';
const PATH = 'spec.template.spec.volumes[0].persistentVolumeClaim';
const rwoClaim = claim('data', { accessModes: ['ReadWriteOnce'], storageClassName: 'ceph-rbd' });
const pod = podSpec([claimVolume('data')]);
const hit = (kind: string, name = 'db') => ({ kind, name, path: PATH, severity: 'error', suppressed: false });

describe(RULE, () => {
  test('refuses a Deployment with the default strategy: maxSurge 25% of one replica rounds up to one pod (incident 1)', () => {
    expect(ruleHits([workload('Deployment', 'db', pod), rwoClaim], RULE)).toEqual([hit('Deployment')]);
  });

  test('refuses an explicit RollingUpdate with maxSurge 1', () => {
    const deployment = workload('Deployment', 'db', pod, {
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    });
    expect(ruleHits([deployment, rwoClaim], RULE)).toEqual([hit('Deployment')]);
  });

  // FoxntaU/Reto2TopTel Drupal/all.yaml (held-out-558): drupal-db lists the RWO claim mariadb-pvc
  // and no container mounts it. The kubelet skips a volume no container uses, so the new pod starts.
  test('real world: passes a claim volume no container mounts; refuses it once a container or an init container mounts it', () => {
    const unused = { ...pod, containers: [{ name: 'db', image: 'mariadb:11' }] };
    expect(ruleHits([workload('Deployment', 'db', unused), rwoClaim], RULE)).toEqual([]);
    // Parisson/TimeSide k8s/nginx-deployment.yaml (held-out-529) writes its containers as a mapping:
    // which volumes they use is unknown, and the claim is judged as mounted.
    const mapping = {
      ...pod,
      containers: { name: 'nginx', image: 'nginx', volumeMounts: [{ name: 'data', mountPath: '/d' }] },
    };
    expect(ruleHits([workload('Deployment', 'db', mapping), rwoClaim], RULE)).toEqual([hit('Deployment')]);
    const hitsWhenMountedBy = (field: 'containers' | 'initContainers', entry: Record<string, unknown>) =>
      ruleHits(
        [
          workload('Deployment', 'db', { ...unused, [field]: [{ name: 'c', image: 'mariadb:11', ...entry }] }),
          rwoClaim,
        ],
        RULE,
      );
    expect(hitsWhenMountedBy('initContainers', { volumeMounts: [{ name: 'data', mountPath: '/d' }] })).toEqual([
      hit('Deployment'),
    ]);
    expect(hitsWhenMountedBy('containers', { volumeDevices: [{ name: 'data', devicePath: '/dev/d' }] })).toEqual([
      hit('Deployment'),
    ]);
  });

  // panchnayak/portworx-poc usecases/postgres/postgres.yml (held-out-174), as Portworx's samples
  // write it: one replica, RollingUpdate with maxSurge 1 and maxUnavailable 1. The Deployment
  // controller removes the old pod as the rollout starts (it may go below the replicas by
  // maxUnavailable), so the new pod waits only for the volume to detach.
  test('real world: warns, and does not refuse, a one-replica rollout whose maxUnavailable removes the old pod at once', () => {
    const rollout = (maxUnavailable: unknown, replicas = 1) =>
      workload('Deployment', 'db', pod, {
        replicas,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable } },
      });
    expect(ruleHits([rollout(1), rwoClaim], RULE)).toEqual([{ ...hit('Deployment'), severity: 'warning' }]);
    expect(ruleHits([rollout('100%'), rwoClaim], RULE)).toEqual([{ ...hit('Deployment'), severity: 'warning' }]);
    expect(findingsFor([rollout(1), rwoClaim]).find((f) => f.rule === RULE)?.message).toContain(
      'But maxUnavailable 1 removes the old pod when the rollout starts',
    );
    // 50% of one pod rounds down to none; with two replicas both run at once: still refused.
    expect(ruleHits([rollout('50%'), rwoClaim], RULE)).toEqual([hit('Deployment')]);
    expect(ruleHits([rollout(1, 2), rwoClaim], RULE)).toEqual([hit('Deployment')]);
  });

  test('refuses a Recreate Deployment that runs more than one replica', () => {
    const deployment = workload('Deployment', 'db', pod, { replicas: 2, strategy: { type: 'Recreate' } });
    expect(ruleHits([deployment, rwoClaim], RULE)).toEqual([hit('Deployment')]);
  });

  // moonstar0331/eks-semi-project k8s/step2-1/wordpress-deployment.yaml (held-out-133): a Recreate
  // Deployment of one replica on an EBS claim, and in the same file an HPA that scales it to 5.
  test('real world: refuses a one-replica Deployment, Recreate or not, that an autoscaler beside it scales past one pod', () => {
    const recreate = workload('Deployment', 'db', pod, { replicas: 1, strategy: { type: 'Recreate' } });
    const hpa = (maxReplicas: number, name = 'db') => ({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'db-hpa' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, minReplicas: 1, maxReplicas },
    });
    expect(ruleHits([recreate, rwoClaim, hpa(5)], RULE)).toEqual([hit('Deployment')]);
    expect(findingsFor([recreate, rwoClaim, hpa(5)]).find((f) => f.rule === RULE)?.message).toContain(
      'HorizontalPodAutoscaler db-hpa scales it up to 5 replicas',
    );
    // A KEDA ScaledObject (its target kind defaults to Deployment, its maximum to 100) counts alike.
    const scaledObject = {
      apiVersion: 'keda.sh/v1alpha1',
      kind: 'ScaledObject',
      metadata: { name: 'db-scaler' },
      spec: { scaleTargetRef: { name: 'db' } },
    };
    expect(ruleHits([recreate, rwoClaim, scaledObject], RULE)).toEqual([hit('Deployment')]);
    // One replica at most, another workload's autoscaler, or one in another directory: nothing.
    expect(ruleHits([recreate, rwoClaim, hpa(1)], RULE)).toEqual([]);
    expect(ruleHits([recreate, rwoClaim, hpa(5, 'web')], RULE)).toEqual([]);
    const withHpaIn = (file: string) =>
      validateObjects([
        { object: recreate, source: { file: 'apps/db/deployment.yaml' } },
        { object: rwoClaim, source: { file: 'apps/db/claim.yaml' } },
        { object: hpa(5), source: { file } },
      ]).findings.filter((f) => f.rule === RULE);
    expect(withHpaIn('apps/db/hpa.yaml').map((f) => f.path)).toEqual([PATH]);
    expect(withHpaIn('examples/autoscaling/hpa.yaml')).toEqual([]);
  });

  // gregorymorenoiem/cardealer-microservices k8s/chatbotservice.yaml (held-out-256): a rolling
  // Deployment written with replicas: 0 and an HPA (hpa.yaml) up to 2. The HPA controller leaves a
  // target at zero replicas alone ("scaling is disabled since the replica count of the target is
  // zero"), so no pod runs; KEDA does scale from zero.
  test('real world: a Deployment at zero replicas runs no pod under an HPA, but does under a KEDA ScaledObject', () => {
    const parked = workload('Deployment', 'db', pod, { replicas: 0 });
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'db-hpa' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'db' },
        minReplicas: 1,
        maxReplicas: 2,
      },
    };
    const scaledObject = {
      apiVersion: 'keda.sh/v1alpha1',
      kind: 'ScaledObject',
      metadata: { name: 'db-scaler' },
      spec: { scaleTargetRef: { name: 'db' }, minReplicaCount: 0, maxReplicaCount: 3 },
    };
    expect(ruleHits([parked, rwoClaim, hpa], RULE)).toEqual([]);
    expect(ruleHits([parked, rwoClaim, scaledObject], RULE)).toEqual([hit('Deployment')]);
  });

  // ahmedwaleedmalik/k8s-llm-inference-platform serving/raw-vllm/ (held-out-316): a Recreate
  // Deployment at zero replicas and a KEDA ScaledObject (maxReplicaCount 3) that ships paused
  // (autoscaling.keda.sh/paused: "true"): KEDA leaves the replicas alone until it is unpaused.
  test('real world: a paused ScaledObject scales only once unpaused: a warning; paused-replicas pins the count', () => {
    const recreate = workload('Deployment', 'db', pod, { replicas: 0, strategy: { type: 'Recreate' } });
    const scaler = (annotations: Record<string, string>) => ({
      apiVersion: 'keda.sh/v1alpha1',
      kind: 'ScaledObject',
      metadata: { name: 'db-scaler', annotations },
      spec: { scaleTargetRef: { name: 'db' }, minReplicaCount: 1, maxReplicaCount: 3 },
    });
    expect(ruleHits([recreate, rwoClaim, scaler({ 'autoscaling.keda.sh/paused': 'true' })], RULE)).toEqual([
      { ...hit('Deployment'), severity: 'warning' },
    ]);
    expect(findingsFor([recreate, rwoClaim, scaler({ 'autoscaling.keda.sh/paused': 'true' })])[0]?.message).toContain(
      'ScaledObject db-scaler, once unpaused, scales it up to 3 replicas',
    );
    expect(ruleHits([recreate, rwoClaim, scaler({ 'autoscaling.keda.sh/paused': 'false' })], RULE)).toEqual([
      hit('Deployment'),
    ]);
    expect(ruleHits([recreate, rwoClaim, scaler({ 'autoscaling.keda.sh/paused-replicas': '1' })], RULE)).toEqual([]);
    expect(ruleHits([recreate, rwoClaim, scaler({ 'autoscaling.keda.sh/paused-replicas': '2' })], RULE)).toEqual([
      hit('Deployment'),
    ]);
  });

  test.each(['ReplicaSet', 'ReplicationController'])('refuses a %s with more than one replica', (kind) => {
    expect(ruleHits([workload(kind, 'db', pod, { replicas: '3' }), rwoClaim], RULE)).toEqual([hit(kind)]);
  });

  test('reads the access mode from the bound PersistentVolume when the claim states none', () => {
    const bare = claim('data', { volumeName: 'pv-data', storageClassName: '' });
    const pv = volume('pv-data', {
      accessModes: ['ReadWriteOncePod'],
      csi: { driver: 'rbd.csi.ceph.com', volumeHandle: 'x' },
    });
    expect(ruleHits([workload('Deployment', 'db', pod), bare, pv], RULE)).toEqual([hit('Deployment')]);
  });

  test('resolves a claim created by a StatefulSet claim template (<template>-<set>-<ordinal>)', () => {
    const statefulSet = workload('StatefulSet', 'local-test', podSpec([]), {
      serviceName: 'local-test',
      volumeClaimTemplates: [
        {
          metadata: { name: 'local-vol' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
    });
    const reader = workload('Deployment', 'reader', podSpec([claimVolume('local-vol-local-test-0')]));
    expect(ruleHits([statefulSet, reader], RULE)).toEqual([hit('Deployment', 'reader')]);
  });

  test('tells the real recovery for a dead node, never ReadWriteMany', () => {
    const finding = findingsFor([workload('Deployment', 'db', pod), rwoClaim]).filter((f) => f.rule === RULE)[0]!;
    expect(finding.message).toContain('PersistentVolumeClaim data (ReadWriteOnce)');
    expect(finding.fix).toContain('StatefulSet');
    expect(finding.fix).toContain('strategy: {type: Recreate}');
    expect(finding.fix).toContain('node.kubernetes.io/out-of-service=nodeshutdown:NoExecute');
    expect(finding.fix).not.toMatch(/make it ReadWriteMany|use ReadWriteMany/i);
  });

  test('passes Recreate with one replica (and the default replicas of 1)', () => {
    expect(ruleHits([workload('Deployment', 'db', pod, { strategy: { type: 'Recreate' } }), rwoClaim], RULE)).toEqual(
      [],
    );
    expect(
      ruleHits([workload('Deployment', 'db', pod, { replicas: 1, strategy: { type: 'Recreate' } }), rwoClaim], RULE),
    ).toEqual([]);
  });

  test('passes a rolling update that cannot surge, a ReplicaSet of one, and a scaled-down Deployment', () => {
    const noSurge = workload('Deployment', 'db', pod, {
      strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
    });
    expect(ruleHits([noSurge, rwoClaim], RULE)).toEqual([]);
    expect(ruleHits([workload('ReplicaSet', 'db', pod), rwoClaim], RULE)).toEqual([]);
    expect(ruleHits([workload('Deployment', 'db', pod, { replicas: 0 }), rwoClaim], RULE)).toEqual([]);
  });

  test('every pod owner that can run pods on two nodes at once: a StatefulSet sharing one claim, a DaemonSet, a parallel Job, an Argo Rollout', () => {
    // A StatefulSet whose template mounts one claim puts every replica on that one volume.
    expect(ruleHits([workload('StatefulSet', 'db', pod, { replicas: 3 }), rwoClaim], RULE)).toEqual([
      hit('StatefulSet'),
    ]);
    expect(ruleHits([workload('DaemonSet', 'agent', pod), rwoClaim], RULE)).toEqual([hit('DaemonSet', 'agent')]);
    expect(ruleHits([workload('Job', 'load', pod, { parallelism: 4 }), rwoClaim], RULE)).toEqual([hit('Job', 'load')]);
    expect(ruleHits([workload('Job', 'load', pod, { parallelism: 1 }), rwoClaim], RULE)).toEqual([]);
    const rollout = {
      ...workload('Rollout', 'web', pod, { replicas: 1, strategy: { canary: { steps: [{ setWeight: 20 }] } } }),
      apiVersion: 'argoproj.io/v1alpha1',
    };
    expect(ruleHits([rollout, rwoClaim], RULE)).toEqual([hit('Rollout', 'web')]);
  });

  test('an OpenShift DeploymentConfig: Rolling (its default) is refused, Recreate and Custom are not; plain v1 as in OpenShift 3', () => {
    const deploymentConfig = (strategy?: Record<string, unknown>) => ({
      ...workload('DeploymentConfig', 'db', pod, { replicas: 1, ...(strategy ? { strategy } : {}) }),
      apiVersion: 'apps.openshift.io/v1',
    });
    expect(ruleHits([deploymentConfig(), rwoClaim], RULE)).toEqual([hit('DeploymentConfig')]);
    expect(
      ruleHits([deploymentConfig({ type: 'Rolling', rollingParams: { maxSurge: '25%' } }), rwoClaim], RULE),
    ).toEqual([hit('DeploymentConfig')]);
    expect(ruleHits([{ ...deploymentConfig(), apiVersion: 'v1' }, rwoClaim], RULE)).toEqual([hit('DeploymentConfig')]);
    expect(ruleHits([deploymentConfig({ type: 'Rolling', rollingParams: { maxSurge: 0 } }), rwoClaim], RULE)).toEqual(
      [],
    );
    expect(ruleHits([deploymentConfig({ type: 'Recreate' }), rwoClaim], RULE)).toEqual([]);
    expect(ruleHits([deploymentConfig({ type: 'Custom' }), rwoClaim], RULE)).toEqual([]);
  });

  test('a claim pinned to one node (local PersistentVolume) or a pod pinned to one node is fine: ReadWriteOnce allows every pod on that node', () => {
    const bound = claim('data', {
      accessModes: ['ReadWriteOnce'],
      volumeName: 'local-data',
      storageClassName: 'local',
    });
    const local = volume('local-data', { accessModes: ['ReadWriteOnce'], local: { path: '/mnt/disks/ssd1' } });
    expect(ruleHits([workload('Deployment', 'db', pod, { replicas: 2 }), bound, local], RULE)).toEqual([]);
    const pinned = podSpec([claimVolume('data')]);
    (pinned as Record<string, unknown>).nodeName = 'worker-1';
    expect(ruleHits([workload('Deployment', 'db', pinned, { replicas: 2 }), rwoClaim], RULE)).toEqual([]);
  });

  test('passes ReadWriteMany claims, read-only mounts of ReadOnlyMany claims, volumeClaimTemplates and unknown claims', () => {
    const shared = claim('data', { accessModes: ['ReadWriteMany'], storageClassName: 'cephfs' });
    expect(ruleHits([workload('Deployment', 'db', pod, { replicas: 3 }), shared], RULE)).toEqual([]);
    const readOnly = claim('data', { accessModes: ['ReadWriteOnce', 'ReadOnlyMany'] });
    expect(
      ruleHits([workload('Deployment', 'db', podSpec([claimVolume('data', true)]), { replicas: 3 }), readOnly], RULE),
    ).toEqual([]);
    expect(ruleHits([workload('Deployment', 'db', pod, { replicas: 3 })], RULE)).toEqual([]);
  });

  test('tolerates malformed workloads', () => {
    const broken = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'db' },
      spec: { strategy: 'fast', template: { spec: { volumes: [null, 5, { persistentVolumeClaim: 'data' }] } } },
    };
    expect(ruleHits([broken, rwoClaim], RULE)).toEqual([]);
  });

  test("the message names the storage's own symptom only when the storage is known to be Ceph RBD", () => {
    const messageWith = (objects: unknown[]) =>
      findingsFor([workload('Deployment', 'db', pod), rwoClaim, ...objects]).find((f) => f.rule === RULE)?.message ??
      '';
    const rbdClass = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'ceph-rbd' },
      provisioner: 'rbd.csi.ceph.com',
    };
    const ebsClass = { ...rbdClass, provisioner: 'ebs.csi.aws.com' };
    expect(messageWith([rbdClass])).toContain('Ceph RBD reports "image is locked by other nodes"');
    expect(messageWith([ebsClass])).toContain('the attach fails with a Multi-Attach error');
    expect(messageWith([ebsClass])).not.toContain('Ceph');
  });
});

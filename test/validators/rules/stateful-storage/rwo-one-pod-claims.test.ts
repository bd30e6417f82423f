import { findingsFor, ruleHits } from '../../../support/findings';
import { claim, claimVolume, podSpec, workload } from './fixtures';

const RULE = 'rwo-claim-in-rolling-deployment';
const path = 'spec.template.spec.volumes[0].persistentVolumeClaim';

/**
 * zenlayer/zenlayer-cloud-csi-driver deploy/simple-example/nginx-multipvc-onepod.yaml (held-out-485),
 * cut down: a Deployment (no strategy, so RollingUpdate with maxSurge 1) pinned to node2 by nodeName
 * mounts a ReadWriteOncePod claim. Pinning makes ReadWriteOnce safe; a ReadWriteOncePod claim admits
 * one pod wherever it runs, so the surge pod stays Pending.
 */
const onePodClaim = claim('file-pvc3', { storageClassName: 'csi-zec', accessModes: ['ReadWriteOncePod'] });
const pinnedDeployment = (spec: Record<string, unknown> = {}) =>
  workload('Deployment', 'nginx-deployment3', podSpec([claimVolume('file-pvc3')], { nodeName: 'node2' }), spec);

describe(`${RULE}: ReadWriteOncePod claims admit one pod, on any node`, () => {
  test('real world: a rolling Deployment pinned to one node still cannot start its surge pod', () => {
    expect(ruleHits([pinnedDeployment(), onePodClaim], RULE)).toEqual([
      { kind: 'Deployment', name: 'nginx-deployment3', path, severity: 'error', suppressed: false },
    ]);
    const [finding] = findingsFor([pinnedDeployment(), onePodClaim]).filter((f) => f.rule === RULE);
    expect(finding?.message).toContain(
      'mounts claim file-pvc3 (ReadWriteOncePod), which admits one pod in the whole cluster',
    );
  });

  test('a second replica is refused too, without a node to pin it to', () => {
    const scaled = workload('Deployment', 'nginx-deployment3', podSpec([claimVolume('file-pvc3')]), {
      replicas: 2,
      strategy: { type: 'Recreate' },
    });
    expect(ruleHits([scaled, onePodClaim], RULE).map((hit) => [hit.path, hit.severity])).toEqual([[path, 'error']]);
  });

  test('passes one replica with Recreate, and a ReadWriteOnce claim on a pinned Deployment', () => {
    expect(ruleHits([pinnedDeployment({ strategy: { type: 'Recreate' } }), onePodClaim], RULE)).toEqual([]);
    const onceClaim = claim('file-pvc3', { storageClassName: 'csi-zec', accessModes: ['ReadWriteOnce'] });
    expect(ruleHits([pinnedDeployment(), onceClaim], RULE)).toEqual([]);
  });
});

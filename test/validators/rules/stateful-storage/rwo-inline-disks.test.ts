import { findingsFor, ruleHits } from '../../../support/findings';
import { podSpec, workload } from './fixtures';

const RULE = 'rwo-claim-in-rolling-deployment';
const ebs = { name: 'aws-ebs', awsElasticBlockStore: { volumeID: 'vol-0fccc3b0af8c17727', fsType: 'ext4' } };
const hit = (kind: string, plugin: string, name = 'db') => ({
  kind,
  name,
  path: `spec.template.spec.volumes[0].${plugin}`,
  severity: 'error',
  suppressed: false,
});

describe(`${RULE}: cloud disks written inline in a pod template`, () => {
  // kubernetes-cookbook/second-edition (held-out-48) chapter2/2-6_volumes/2-6-8_aws/static_mount.yaml:
  // a 2-replica Deployment on an inline awsElasticBlockStore volume.
  test('real world: refuses two replicas on one inline EBS volume, saying the disk attaches to one node', () => {
    const deployment = workload('Deployment', 'aws-ebs-deployment', podSpec([ebs]), { replicas: 2 });
    expect(ruleHits([deployment], RULE)).toEqual([hit('Deployment', 'awsElasticBlockStore', 'aws-ebs-deployment')]);
    const [finding] = findingsFor([deployment]).filter((f) => f.rule === RULE);
    expect(finding?.message).toContain(
      'mounts inline awsElasticBlockStore volume "aws-ebs", a disk that attaches to one node',
    );
    expect(finding?.message).toContain('Multi-Attach');
  });

  test.each([
    ['gcePersistentDisk', { pdName: 'data', fsType: 'ext4' }],
    ['azureDisk', { diskName: 'data', diskURI: '/subscriptions/x/disks/data' }],
    ['cinder', { volumeID: 'b7b2f2b6' }],
  ])('refuses a rolling Deployment of one replica on an inline %s', (plugin, source) => {
    const deployment = workload('Deployment', 'db', podSpec([{ name: 'data', [plugin]: source }]));
    expect(ruleHits([deployment], RULE)).toEqual([hit('Deployment', plugin)]);
  });

  test('passes Recreate with one replica, a read-only GCE disk shared by every pod, and a pod pinned to one node', () => {
    const recreate = workload('Deployment', 'db', podSpec([ebs]), { replicas: 1, strategy: { type: 'Recreate' } });
    const readOnlyPd = workload(
      'Deployment',
      'web',
      podSpec([{ name: 'assets', gcePersistentDisk: { pdName: 'assets', readOnly: true } }]),
      { replicas: 3 },
    );
    const pinned = workload(
      'Deployment',
      'pinned',
      podSpec([ebs], { nodeSelector: { 'kubernetes.io/hostname': 'node-a' } }),
      { replicas: 2 },
    );
    expect(ruleHits([recreate, readOnlyPd, pinned], RULE)).toEqual([]);
  });

  // Regis-Loyaute/kubernetes-manifests (held-out-510) Nginx-Proxy-Manager/app-iscsi.yaml: three
  // replicas on inline iSCSI LUNs formatted ext4, which nothing keeps to one node.
  test('real world: refuses three replicas on one inline iSCSI LUN, saying nothing guards it from a second node', () => {
    const iscsi = {
      name: 'data',
      iscsi: { targetPortal: '192.168.1.20:3260', iqn: 'iqn.2005-10.org.freenas.ctl:npm', lun: 0, fsType: 'ext4' },
    };
    const deployment = workload('Deployment', 'npm', podSpec([iscsi]), { replicas: 3 });
    expect(ruleHits([deployment], RULE)).toEqual([hit('Deployment', 'iscsi', 'npm')]);
    const [finding] = findingsFor([deployment]).filter((f) => f.rule === RULE);
    expect(finding?.message).toContain('mounts inline iscsi volume "data" read-write');
    expect(finding?.message).toContain('corrupt');
    expect(finding?.message).not.toContain('Multi-Attach');
    const fibreChannel = workload('Deployment', 'db', podSpec([{ name: 'data', fc: { wwids: ['3600508b4'] } }]));
    expect(ruleHits([fibreChannel], RULE)).toEqual([hit('Deployment', 'fc')]);
    // Read-only, many nodes may mount the LUN.
    const readOnly = workload('Deployment', 'web', podSpec([{ ...iscsi, iscsi: { ...iscsi.iscsi, readOnly: true } }]), {
      replicas: 3,
    });
    expect(ruleHits([readOnly], RULE)).toEqual([]);
  });
});

import { findingsFor, ruleHits } from '../../../support/findings';

const DROPS = 'eviction-hard-drops-default-signals';
const DEPRECATED = 'deprecated-kubelet-eviction-flag';

/**
 * yingmuting/eks-demo-whb ip/eksipv6-mng.yaml (held-out-470), cut down: a managed nodegroup's
 * overrideBootstrapCommand calls the AL2 AMI's bootstrap.sh with kubelet flags.
 */
const eksctlCluster = (kubeletArgs: string) => ({
  apiVersion: 'eksctl.io/v1alpha5',
  kind: 'ClusterConfig',
  metadata: { name: 'testipv63', region: 'us-east-1' },
  managedNodeGroups: [
    {
      name: 'x86-al2-on-demand-xl',
      instanceType: 'm6i.xlarge',
      ami: 'ami-0123456789abcdef0',
      overrideBootstrapCommand: `#!/bin/bash\n/etc/eks/bootstrap.sh testipv63  --kubelet-extra-args '${kubeletArgs}' --ip-family ipv6\n`,
    },
  ],
});
const PARTIAL =
  '--max-pods=110 --eviction-hard=memory.available<100Mi,nodefs.available<10% --feature-gates=RotateKubeletServerCertificate=true';
const ALL_THREE = '--eviction-hard=memory.available<100Mi,nodefs.available<10%,nodefs.inodesFree<5%';

/** yingmuting/eks-demo-whb karpenter/karpenter.yaml (held-out-470): the same flags in an AWSNodeTemplate's MIME userData. */
const awsNodeTemplate = (kubeletArgs: string) => ({
  apiVersion: 'karpenter.k8s.aws/v1alpha1',
  kind: 'AWSNodeTemplate',
  metadata: { name: 'default' },
  spec: {
    amiSelector: { 'aws-ids': 'ami-0bd3c2e379f7f09c9' },
    userData: [
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="BOUNDARY"',
      '',
      '--BOUNDARY',
      'Content-Type: text/x-shellscript; charset="us-ascii"',
      '',
      '#!/bin/bash',
      `/etc/eks/bootstrap.sh whb-karpenter-demo  --kubelet-extra-args "${kubeletArgs}"`,
      '',
      '--BOUNDARY--',
      '',
    ].join('\n'),
  },
});

describe(`${DROPS}: --eviction-hard passed through the EKS AL2 bootstrap.sh`, () => {
  test('real world: an eksctl overrideBootstrapCommand whose flag names two signals replaces the AMI map and drops nodefs.inodesFree', () => {
    expect(ruleHits([eksctlCluster(PARTIAL)], DROPS)).toEqual([
      {
        kind: 'ClusterConfig',
        name: 'testipv63',
        path: 'managedNodeGroups[0].overrideBootstrapCommand',
        severity: 'error',
        suppressed: false,
      },
    ]);
    const [finding] = findingsFor([eksctlCluster(PARTIAL)]).filter((f) => f.rule === DROPS);
    expect(finding?.message).toContain("replaces the EKS AL2 AMI's evictionHard: nodefs.inodesFree (was 5%)");
    expect(ruleHits([eksctlCluster(PARTIAL)], DEPRECATED).map((hit) => hit.severity)).toEqual(['warning']);
  });

  test("real world: a Karpenter AWSNodeTemplate's MIME userData, with the flags in double quotes", () => {
    expect(ruleHits([awsNodeTemplate(PARTIAL)], DROPS).map((hit) => [hit.kind, hit.path, hit.severity])).toEqual([
      ['AWSNodeTemplate', 'spec.userData', 'error'],
    ]);
  });

  test("passes flags that keep the AMI's three signals, a bootstrap.sh call without eviction flags, and a script that calls no bootstrap.sh", () => {
    expect(ruleHits([eksctlCluster(ALL_THREE), awsNodeTemplate('--max-pods=110')], DROPS)).toEqual([]);
    const nodeadm = {
      ...eksctlCluster(PARTIAL),
      managedNodeGroups: [{ name: 'al2023', overrideBootstrapCommand: `echo ${PARTIAL}` }],
    };
    expect(findingsFor([nodeadm]).filter((f) => f.rule.startsWith('eviction') || f.rule === DEPRECATED)).toEqual([]);
  });
});

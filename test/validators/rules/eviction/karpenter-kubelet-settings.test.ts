import { KubeVersion, fixFor, validateObjects } from '../../../../validators';
import { ruleHits } from '../../../support/findings';

const DROPS = 'eviction-hard-drops-default-signals';

/**
 * aws/karpenter-provider-aws website/content/en/docs/concepts/nodeclasses.md at 1d927085: the
 * EC2NodeClass example, AMI family AL2, whose evictionHard names the three signals the AL2 AMI's
 * bootstrap.sh writes.
 */
const docsNodeClass = (
  evictionHard: Record<string, string>,
  family: Record<string, unknown> = { amiFamily: 'AL2' },
) => ({
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  metadata: { name: 'default' },
  spec: {
    kubelet: {
      podsPerCore: 2,
      maxPods: 20,
      evictionHard,
      evictionSoft: { 'memory.available': '500Mi', 'nodefs.available': '15%', 'nodefs.inodesFree': '15%' },
      evictionSoftGracePeriod: { 'memory.available': '1m', 'nodefs.available': '1m30s', 'nodefs.inodesFree': '2m' },
      evictionMaxPodGracePeriod: 60,
    },
    ...family,
    subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'demo' } }],
    role: 'KarpenterNodeRole-demo',
  },
});
const DOCS_EVICTION_HARD = { 'memory.available': '5%', 'nodefs.available': '10%', 'nodefs.inodesFree': '10%' };
const MEMORY_ONLY = { 'memory.available': '500Mi' };

const error = (kind: string, name: string, path: string) => ({
  kind,
  name,
  path,
  severity: 'error',
  suppressed: false,
});

describe('kubelet eviction in Karpenter node templates, judged by how the AMI family receives it', () => {
  test('real world: the docs example on AL2 names every signal the AMI writes: nothing is dropped', () => {
    expect(ruleHits([docsNodeClass(DOCS_EVICTION_HARD)], DROPS)).toEqual([]);
  });

  test.each([
    ['amiFamily: AL2', { amiFamily: 'AL2' }],
    ['an al2@latest alias', { amiSelectorTerms: [{ alias: 'al2@latest' }] }],
  ])(
    'on AL2 (%s), a map without nodefs thresholds drops them: --eviction-hard replaces the AMI map',
    (_how, family) => {
      expect(ruleHits([docsNodeClass(MEMORY_ONLY, family)], DROPS)).toEqual([
        error('EC2NodeClass', 'default', 'spec.kubelet.evictionHard'),
      ]);
      const [finding] = validateObjects([{ object: docsNodeClass(MEMORY_ONLY, family) }]).findings.filter(
        (f) => f.rule === DROPS,
      );
      expect(finding?.message).toContain("replaces the AL2 AMI's evictionHard: nodefs.available");
      expect(finding?.fix).toBe('Add nodefs.available<10%, nodefs.inodesFree<5% to evictionHard.');
    },
  );

  test('on AL2023 the map is merged by nodeadm as a drop-in, and on a custom AMI nothing is claimed', () => {
    for (const family of [
      { amiSelectorTerms: [{ alias: 'al2023@latest' }] },
      { amiFamily: 'Custom', amiSelectorTerms: [{ id: 'ami-0123456789' }] },
    ])
      expect(ruleHits([docsNodeClass(MEMORY_ONLY, family)], DROPS)).toEqual([]);
  });

  test("on Bottlerocket the map becomes settings.kubernetes.eviction-hard, Bottlerocket's whole evictionHard", () => {
    const family = { amiSelectorTerms: [{ alias: 'bottlerocket@v1.20.0' }] };
    expect(ruleHits([docsNodeClass(MEMORY_ONLY, family)], DROPS)).toEqual([
      error('EC2NodeClass', 'default', 'spec.kubelet.evictionHard'),
    ]);
    // The docs' map keeps memory and both nodefs signals; images share that volume on Bottlerocket.
    expect(ruleHits([docsNodeClass(DOCS_EVICTION_HARD, family)], DROPS)).toEqual([]);
  });

  test('the values are checked whatever the AMI family: 0% disables a signal on AL2023 too', () => {
    const nodeClass = docsNodeClass(
      { 'memory.available': '5%', 'nodefs.available': '0%' },
      { amiSelectorTerms: [{ alias: 'al2023@latest' }] },
    );
    expect(ruleHits([nodeClass], 'eviction-threshold-disables-signal')).toEqual([
      {
        kind: 'EC2NodeClass',
        name: 'default',
        path: 'spec.kubelet.evictionHard[nodefs.available]',
        severity: 'warning',
        suppressed: false,
      },
    ]);
  });

  test('a v1beta1 NodePool takes the AMI family of the EC2NodeClass it names', () => {
    const nodePool = (nodeClassName: string) => ({
      apiVersion: 'karpenter.sh/v1beta1',
      kind: 'NodePool',
      metadata: { name: 'default' },
      spec: { template: { spec: { nodeClassRef: { name: nodeClassName }, kubelet: { evictionHard: MEMORY_ONLY } } } },
    });
    const nodeClass = (name: string, amiFamily: string) => ({
      apiVersion: 'karpenter.k8s.aws/v1beta1',
      kind: 'EC2NodeClass',
      metadata: { name },
      spec: { amiFamily },
    });
    const objects = [nodeClass('al2', 'AL2'), nodeClass('al2023', 'AL2023')];
    expect(ruleHits([...objects, nodePool('al2')], DROPS)).toEqual([
      error('NodePool', 'default', 'spec.template.spec.kubelet.evictionHard'),
    ]);
    expect(ruleHits([...objects, nodePool('al2023')], DROPS)).toEqual([]);
    // A class that is not in the input: its family, and so the judgement, is unknown.
    expect(ruleHits([nodePool('elsewhere')], DROPS)).toEqual([]);
    // karpenter.sh/v1 moved the settings to the EC2NodeClass: a v1 NodePool's kubelet field is not read.
    expect(ruleHits([...objects, { ...nodePool('al2'), apiVersion: 'karpenter.sh/v1' }], DROPS)).toEqual([]);
  });

  test('a v1alpha5 Provisioner defaults to AL2, or takes the family of its AWSNodeTemplate', () => {
    const provisioner = (spec: Record<string, unknown>) => ({
      apiVersion: 'karpenter.sh/v1alpha5',
      kind: 'Provisioner',
      metadata: { name: 'default' },
      spec: { kubeletConfiguration: { evictionHard: MEMORY_ONLY }, ...spec },
    });
    const template = (amiFamily?: string) => ({
      apiVersion: 'karpenter.k8s.aws/v1alpha1',
      kind: 'AWSNodeTemplate',
      metadata: { name: 'default' },
      spec: { subnetSelector: { 'karpenter.sh/discovery': 'demo' }, ...(amiFamily ? { amiFamily } : {}) },
    });
    const refused = [error('Provisioner', 'default', 'spec.kubeletConfiguration.evictionHard')];
    expect(ruleHits([provisioner({})], DROPS)).toEqual(refused);
    expect(ruleHits([provisioner({ providerRef: { name: 'default' } }), template()], DROPS)).toEqual(refused);
    expect(ruleHits([provisioner({ providerRef: { name: 'default' } }), template('Bottlerocket')], DROPS)).toEqual(
      refused,
    );
    expect(ruleHits([provisioner({ providerRef: { name: 'default' } }), template('Windows2022')], DROPS)).toEqual([]);
    expect(ruleHits([provisioner({ provider: { amiFamily: 'AL2023' } })], DROPS)).toEqual([]);
  });

  test('the fix completes the map with the signals of the AMI map it replaces', () => {
    const object = docsNodeClass(MEMORY_ONLY);
    const version = KubeVersion.parse('1.35');
    const finding = validateObjects([{ object }], { kubernetesVersion: version }).findings.find(
      (f) => f.rule === DROPS,
    );
    expect(finding && fixFor(finding, object, version)).toEqual({
      edits: [
        { op: 'set', path: ['spec', 'kubelet', 'evictionHard', 'nodefs.available'], value: '10%' },
        { op: 'set', path: ['spec', 'kubelet', 'evictionHard', 'nodefs.inodesFree'], value: '5%' },
      ],
    });
  });
});

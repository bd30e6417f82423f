import { asArray, asRecord, asString, getRecord, JsonRecord } from '../../json';
import { IndexedObject, ObjectIndex } from '../../object-index';
import { EvictionSettingsView, fromKubeletConfiguration } from './eviction-views';
import { BOTTLEROCKET_REPLACES } from './bottlerocket-settings';

/**
 * How Karpenter's AWS provider hands a node's kubelet settings to each AMI family
 * (aws/karpenter-provider-aws `pkg/providers/amifamily/bootstrap`):
 *  - `flags`: the AL2 bootstrap script gets `--eviction-hard=...` in its kubelet extra arguments
 *    (`bootstrap.go` kubeletExtraArgs). The flag replaces the whole map the AMI's bootstrap.sh wrote
 *    (AL2_EVICTION_HARD), so a signal of that map left out keeps no threshold at all.
 *  - `drop-in`: AL2023 gets them in a nodeadm NodeConfig, which nodeadm writes as a kubelet
 *    `--config-dir` drop-in (`config.json.d/40-nodeadm.conf`); the kubelet merges it key by key onto
 *    nodeadm's own evictionHard (memory.available, nodefs.available, nodefs.inodesFree).
 *  - `bottlerocket`: Bottlerocket gets the map in its own settings (`settings.kubernetes.eviction-hard`,
 *    `bootstrap/bottlerocket.go`), from which it writes an evictionHard of exactly those signals: the
 *    map replaces the kubelet's defaults (bottlerocket-settings.ts).
 *  - `unknown`: Windows AMIs and a Custom AMI bootstrap with defaults of their own: what the settings
 *    replace is not known, so no signal is said to be dropped; the values are still checked.
 */
type Delivery = 'flags' | 'drop-in' | 'bottlerocket' | 'unknown';

/**
 * The evictionHard the EKS AL2 AMI's bootstrap.sh writes into the kubelet's configuration
 * (awslabs/amazon-eks-ami `templates/al2/runtime/bootstrap.sh`): what a Karpenter AL2 node's
 * `--eviction-hard` replaces. (Its containerd keeps images on the root filesystem, so nodefs covers imagefs.)
 */
export const AL2_EVICTION_HARD: Readonly<Record<string, string>> = {
  'memory.available': '100Mi',
  'nodefs.available': '10%',
  'nodefs.inodesFree': '5%',
};

/**
 * The Karpenter kinds that carry kubelet settings, where, and how each finds its AMI family:
 *  - karpenter.k8s.aws/v1 EC2NodeClass `spec.kubelet`, beside its own AMI family;
 *  - karpenter.sh/v1beta1 NodePool `spec.template.spec.kubelet`, family on the EC2NodeClass it names;
 *  - karpenter.sh/v1alpha5 Provisioner `spec.kubeletConfiguration`, family on its AWSNodeTemplate
 *    (or inline `spec.provider`), AL2 when neither names one.
 */
const KARPENTER_KUBELET_FIELDS: ReadonlyArray<{
  readonly kind: string;
  /** The one API version whose kind carries the field (each version moved or dropped it). */
  readonly apiVersion: string;
  readonly keys: readonly string[];
  readonly family: (object: IndexedObject, index: ObjectIndex) => string | undefined;
}> = [
  { kind: 'EC2NodeClass', apiVersion: 'karpenter.k8s.aws/v1', keys: ['spec', 'kubelet'], family: amiFamily },
  {
    kind: 'NodePool',
    apiVersion: 'karpenter.sh/v1beta1',
    keys: ['spec', 'template', 'spec', 'kubelet'],
    family: (nodePool, index) => {
      const nodeClassName = asString(getRecord(nodePool.raw, 'spec', 'template', 'spec', 'nodeClassRef')?.name);
      const nodeClass = index.get('EC2NodeClass', undefined, nodeClassName, nodePool);
      return nodeClass && amiFamily(nodeClass);
    },
  },
  {
    kind: 'Provisioner',
    apiVersion: 'karpenter.sh/v1alpha5',
    keys: ['spec', 'kubeletConfiguration'],
    family: (provisioner, index) => {
      const templateName = asString(getRecord(provisioner.raw, 'spec', 'providerRef')?.name);
      if (templateName === undefined)
        return asString(getRecord(provisioner.raw, 'spec', 'provider')?.amiFamily) ?? 'AL2';
      const template = index.get('AWSNodeTemplate', undefined, templateName, provisioner);
      return template && (asString(getRecord(template.raw, 'spec')?.amiFamily) ?? 'AL2');
    },
  },
];

/** Kubelet eviction in Karpenter's node templates, at their own fields, judged by how the AMI family receives it. */
export function karpenterKubeletSettings(index: ObjectIndex): EvictionSettingsView[] {
  return KARPENTER_KUBELET_FIELDS.flatMap(({ kind, apiVersion, keys, family }) =>
    index
      .ofKind(kind)
      .filter((object) => object.raw.apiVersion === apiVersion)
      .flatMap((object) => karpenterView(object, keys, family(object, index)) ?? []),
  );
}

/** Whether `path` of `object` is the kubelet settings of a Karpenter kind, or inside them. */
export function inKarpenterKubeletSettings(object: JsonRecord, path: ReadonlyArray<string | number>): boolean {
  return KARPENTER_KUBELET_FIELDS.some(
    ({ kind, apiVersion, keys }) =>
      object.kind === kind && object.apiVersion === apiVersion && keys.every((key, i) => path[i] === key),
  );
}

/** An EC2NodeClass's AMI family: `spec.amiFamily`, or the family of its `amiSelectorTerms` alias (`al2023@latest`). */
function amiFamily(nodeClass: IndexedObject): string | undefined {
  const spec = asRecord(nodeClass.raw.spec);
  const declared = asString(spec?.amiFamily);
  if (declared !== undefined) return declared;
  for (const term of asArray(spec?.amiSelectorTerms)) {
    const alias = asString(asRecord(term)?.alias);
    if (alias !== undefined) return alias.split('@')[0];
  }
  return undefined;
}

function deliveryOf(family: string | undefined): Delivery {
  const normalized = family?.toLowerCase();
  if (normalized === 'al2') return 'flags';
  if (normalized === 'bottlerocket') return 'bottlerocket';
  return normalized === 'al2023' ? 'drop-in' : 'unknown';
}

function karpenterView(
  object: IndexedObject,
  keys: readonly string[],
  family: string | undefined,
): EvictionSettingsView | undefined {
  const kubelet: JsonRecord | undefined = getRecord(object.raw, ...keys);
  if (!kubelet) return undefined;
  const delivery = deliveryOf(family);
  const path = keys.join('.');
  const view = fromKubeletConfiguration(object, kubelet, path, delivery === 'drop-in');
  const how = {
    flags: 'passed to the kubelet as --eviction-* flags',
    'drop-in': 'merged by nodeadm onto its kubelet configuration as a --config-dir drop-in',
    bottlerocket: 'copied into settings.kubernetes.eviction-hard, which Bottlerocket writes as the whole evictionHard',
    unknown: 'handed to the AMI in a way ballast cannot follow, so dropped defaults are not judged',
  }[delivery];
  return {
    ...view,
    ...(delivery === 'unknown' ? { deliveryUnknown: true } : {}),
    ...(delivery === 'flags' ? { replaces: { what: "the AL2 AMI's evictionHard", signals: AL2_EVICTION_HARD } } : {}),
    ...(delivery === 'bottlerocket' ? { replaces: BOTTLEROCKET_REPLACES } : {}),
    withoutMergeDefaultsField: true,
    where: `Karpenter ${object.ref.kind ?? ''} ${object.ref.name ?? ''} ${path} (AMI family ${family ?? 'not in the input'}: ${how})`,
  };
}

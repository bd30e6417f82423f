/**
 * The `kubeletEviction` section of a node group in the stack config: typed, and checked with the
 * same code as the KubeletEvictionPolicy construct, so the stack refuses exactly what the kubelet
 * would refuse at start (and what ballast refuses on top), before anything reaches a node. Values
 * arrive untyped from Pulumi.<stack>.yaml; every error names its field in the stack config.
 */
import {
  EvictionDefaults,
  KubeletEvictionPolicy,
  KubeletEvictionPolicyProps,
} from '../../constructs/kubelet-eviction-policy';
import {
  KubeletEvictionDelivery,
  NodeFile,
  kubeletEvictionDelivery,
  kubeletEvictionNodeFiles,
} from '../../constructs/kubelet-eviction-node-files';
import { BallastPropError } from '../../constructs/prop-error';

/**
 * `nodeGroups[].extensions.kubeletEviction` as written in Pulumi.<stack>.yaml: the construct's
 * props (documented, with their defaults, on KubeletEvictionPolicyProps), plus how the stack
 * delivers them to the nodes.
 */
export interface KubeletEvictionStepConfig extends KubeletEvictionPolicyProps {
  /** @default 'config-dir' from 1.30, 'systemd-drop-in' before */
  readonly delivery?: KubeletEvictionDelivery;
  /**
   * The kubelet's --config-dir (delivery 'config-dir' only).
   * @default '/etc/kubernetes/kubelet.conf.d'
   */
  readonly configDir?: string;
  /**
   * Seconds the kubelet gets to become healthy after a restart before the previous files are
   * restored. @default 120
   */
  readonly healthTimeoutSeconds?: number;
}

/** A validated section: the policy, the files it puts on each node, and how they are applied. */
export interface KubeletEvictionStepSettings {
  readonly policy: KubeletEvictionPolicy;
  /** Sorted by path. */
  readonly files: readonly NodeFile[];
  /** The --config-dir the kubelet must have been started with; undefined for the systemd drop-in. */
  readonly configDir?: string;
  readonly healthTimeoutSeconds: number;
}

export const DEFAULT_HEALTH_TIMEOUT_SECONDS = 120;
const FIELDS: ReadonlyArray<keyof KubeletEvictionStepConfig> = [
  'kubernetesVersion',
  'hard',
  'soft',
  'minimumReclaim',
  'maxPodGracePeriodSeconds',
  'defaults',
  'delivery',
  'configDir',
  'healthTimeoutSeconds',
];
const DELIVERIES: readonly KubeletEvictionDelivery[] = ['config-dir', 'systemd-drop-in'];
const DEFAULTS: readonly EvictionDefaults[] = ['explicit', 'merge-by-kubelet'];
/** The path is written into a shell script and compared with the kubelet's own arguments. */
const SAFE_ABSOLUTE_PATH = /^\/[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/?$/;

/**
 * Validates the raw section; throws one Error listing every problem, each prefixed with its field
 * (`nodeGroups[0].extensions.kubeletEviction.hard.nodefs.available "3%": ...`).
 */
export function parseKubeletEvictionStepConfig(raw: unknown, where: string): KubeletEvictionStepSettings {
  const fail = (problems: string[]): never => {
    throw new Error(problems.join('\n  - '));
  };
  if (!isRecord(raw))
    fail([
      `${where}: expected a map such as {kubernetesVersion: "1.30", hard: {nodefs.available: "5%"}}, got ${JSON.stringify(raw)}`,
    ]);
  const config = raw as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(config)) {
    if (!(FIELDS as readonly string[]).includes(key))
      problems.push(`${where}.${key}: unknown field; known: ${FIELDS.join(', ')}`);
  }
  if (typeof config.kubernetesVersion !== 'string')
    problems.push(`${where}.kubernetesVersion: required, the kubelet's MAJOR.MINOR as a string, e.g. "1.30"`);
  for (const key of ['hard', 'soft', 'minimumReclaim'] as const) {
    if (config[key] !== undefined && !isRecord(config[key]))
      problems.push(`${where}.${key}: expected a map of eviction signal to value, got ${JSON.stringify(config[key])}`);
  }
  if (config.delivery !== undefined && !(DELIVERIES as readonly unknown[]).includes(config.delivery)) {
    problems.push(`${where}.delivery ${JSON.stringify(config.delivery)}: use one of ${DELIVERIES.join(', ')}`);
  }
  if (config.defaults !== undefined && !(DEFAULTS as readonly unknown[]).includes(config.defaults)) {
    problems.push(`${where}.defaults ${JSON.stringify(config.defaults)}: use one of ${DEFAULTS.join(', ')}`);
  }
  if (
    config.configDir !== undefined &&
    (typeof config.configDir !== 'string' ||
      !SAFE_ABSOLUTE_PATH.test(config.configDir) ||
      config.configDir.includes('..'))
  ) {
    problems.push(
      `${where}.configDir ${JSON.stringify(config.configDir)}: an absolute path of letters, digits, '.', '_', '-', e.g. "/etc/kubernetes/kubelet.conf.d"`,
    );
  }
  if (config.configDir !== undefined && config.delivery === 'systemd-drop-in') {
    problems.push(`${where}.configDir: only used with delivery 'config-dir'; remove it or change the delivery`);
  }
  const timeout = config.healthTimeoutSeconds ?? DEFAULT_HEALTH_TIMEOUT_SECONDS;
  if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 10 || timeout > 1800) {
    problems.push(
      `${where}.healthTimeoutSeconds ${JSON.stringify(timeout)}: a whole number of seconds from 10 to 1800`,
    );
  }
  if (config.maxPodGracePeriodSeconds !== undefined && !Number.isSafeInteger(config.maxPodGracePeriodSeconds)) {
    problems.push(
      `${where}.maxPodGracePeriodSeconds ${JSON.stringify(config.maxPodGracePeriodSeconds)}: a whole number of seconds`,
    );
  }
  if (problems.length > 0) fail(problems);

  const props: KubeletEvictionPolicyProps = {
    kubernetesVersion: config.kubernetesVersion as string,
    hard: config.hard as KubeletEvictionPolicyProps['hard'],
    soft: config.soft as KubeletEvictionPolicyProps['soft'],
    minimumReclaim: config.minimumReclaim as KubeletEvictionPolicyProps['minimumReclaim'],
    maxPodGracePeriodSeconds: config.maxPodGracePeriodSeconds as number | undefined,
    defaults: config.defaults as EvictionDefaults | undefined,
  };
  try {
    const policy = new KubeletEvictionPolicy(props);
    const delivery = config.delivery as KubeletEvictionDelivery | undefined;
    const files = kubeletEvictionNodeFiles(policy, { delivery, configDir: config.configDir as string | undefined });
    const configDir =
      kubeletEvictionDelivery(policy, delivery) === 'config-dir'
        ? files[0]?.path.slice(0, files[0].path.lastIndexOf('/'))
        : undefined;
    return { policy, files, configDir, healthTimeoutSeconds: timeout as number };
  } catch (error) {
    throw new Error(inStackTerms(error, where));
  }
}

/**
 * `KubeletEvictionPolicy: invalid hard.nodefs.available "3%": ...` becomes
 * `<where>.hard.nodefs.available "3%": ...`: the user edits YAML, not the construct.
 */
function inStackTerms(error: unknown, where: string): string {
  if (!(error instanceof BallastPropError)) return `${where}: ${(error as Error).message}`;
  const marker = `invalid ${error.prop} `;
  const at = error.message.indexOf(marker);
  return at < 0
    ? `${where}.${error.prop}: ${error.message}`
    : `${where}.${error.prop} ${error.message.slice(at + marker.length)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

import { ComponentImage, componentImage } from '../../component-image';
import { embeddedYamlDocuments } from '../../embedded-yaml';
import { fieldPath } from '../../field-path';
import { JsonRecord, asArray, asRecord, asString, getRecord, ownEntry } from '../../json';
import { IndexedObject, ObjectIndex, PodTemplate } from '../../object-index';
import { commandLineMentions, podContainers } from '../../pod-templates';
import { mayConfigureAComponent } from './config-map-consumers';

/** One setting as written: its value and the field path of the text that holds it. */
export interface WrittenSetting {
  /** A flag's value (always a string) or a config field's value (any JSON). */
  readonly value: unknown;
  readonly path: string;
  /** The flag it was written with, where several name one setting (`enable-leader-election`). */
  readonly flag?: string;
}

/**
 * The leader-election settings of one component: from the flags of one container, or from one
 * component configuration document (a config object, or one held in a ConfigMap's data).
 */
export interface LeaderElectionSettings {
  readonly owner: IndexedObject;
  /** `container controller-manager of Deployment kube-system/kcm` or `KubeSchedulerConfiguration in ConfigMap data key config.yaml`. */
  readonly description: string;
  readonly origin: 'flags' | 'config';
  /** `--leader-elect[=bool]` / `leaderElect`. */
  readonly leaderElect?: WrittenSetting;
  readonly resourceLock?: WrittenSetting;
  readonly leaseDuration?: WrittenSetting;
  readonly renewDeadline?: WrittenSetting;
  readonly retryPeriod?: WrittenSetting;
  /** For flags: the pod template the container belongs to. */
  readonly podTemplate?: PodTemplate;
  /** For flags: the container's image, as written. */
  readonly image?: string;
  /**
   * For flags: the container names a `--kubeconfig`, so it talks to the API server as that file's
   * user (a control-plane component's own), not as its pod's ServiceAccount.
   */
  readonly usesKubeconfig?: boolean;
  /**
   * Set when no flag names the lock and `resourceLock` is the default of the container's image
   * (`csi-provisioner before v2.0`, `kube-scheduler v1.16`); its path is then the image's.
   */
  readonly resourceLockDefaultOf?: { readonly which: string; readonly remedy: string };
  /**
   * For config: the block is component-base's LeaderElectionConfiguration (`leaderElection`, or
   * `generic.leaderElection`), whose defaulting (RecommendedDefaultLeaderElectionConfiguration)
   * replaces a zero duration with the default: `leaseDuration: 0s` there means 15s.
   */
  readonly zeroTimingIsDefault?: boolean;
}

/** The lock an image's release falls back to when no flag names one, and how to move off it. */
interface DefaultLock {
  readonly lock: string;
  /** `csi-provisioner before v2.0`, `kube-scheduler v1.16`. */
  readonly which: string;
  readonly remedy: string;
}

/**
 * CSI sidecars whose releases before 2.0 elect their leader on Endpoints or ConfigMaps unless told
 * otherwise: kubernetes-csi external-provisioner v1.x (`--leader-election-type` defaults to
 * `endpoints`; v1.0 uses an Endpoints lock of its own), external-attacher v0.x and v1.x (a ConfigMap
 * lock; from v1.1 `--leader-election-type` defaults to `configmaps`). From 2.0 both use Leases.
 * Leader election is off in them unless the `enable` flag is given.
 */
const SIDECAR_LOCK_DEFAULTS: ReadonlyArray<{
  readonly image: RegExp;
  /** The flag those releases switch leader election on with. */
  readonly enable: string;
  readonly lock: string;
  readonly which: string;
}> = [
  {
    image: /(^|\/)csi-provisioner:v1\.\d/,
    enable: 'enable-leader-election',
    lock: 'endpoints',
    which: 'csi-provisioner before v2.0',
  },
  {
    image: /(^|\/)csi-attacher:v[01]\.\d/,
    enable: 'leader-election',
    lock: 'configmaps',
    which: 'csi-attacher before v2.0',
  },
];

const SIDECAR_REMEDY =
  'Move the sidecar to v2.0 or later, which uses Leases (from v1.1, --leader-election-type=leases also does).';

/**
 * Control-plane components (and hyperkube running one), which from 1.4 elect a leader unless
 * `--leader-elect=false` and, before 1.20, do it on a legacy lock: `endpoints` until 1.16,
 * `endpointsleases` (which still writes the Endpoints object) from 1.17 (kubernetes#84084), `leases`
 * from 1.20 (kubernetes#94603).
 */
const ELECTING_PROGRAMS = new Set([
  'kube-scheduler',
  'kube-controller-manager',
  'cloud-controller-manager',
  'hyperkube',
]);

/** The image of a component that elects a leader, or undefined. */
function electingComponentImage(image: string): ComponentImage | undefined {
  const component = componentImage(image);
  return component && ELECTING_PROGRAMS.has(component.program) ? component : undefined;
}
/**
 * The first minor whose control-plane components elect a leader without `--leader-elect`: the flag
 * came in 1.2 switched off (kubernetes#19347, #19621: `--leader-elect[=false]`) and was switched on
 * by default after 1.3 (kubernetes#29207); 1.0 and 1.1 have no leader election at all.
 */
const LEADER_ELECT_DEFAULT_ON_SINCE_MINOR = 4;
/** The words that name a control-plane component in hyperkube's command line (`/hyperkube scheduler`), and its name. */
const HYPERKUBE_COMPONENTS: ReadonlyMap<string, string> = new Map([
  ['kube-scheduler', 'kube-scheduler'],
  ['scheduler', 'kube-scheduler'],
  ['kube-controller-manager', 'kube-controller-manager'],
  ['controller-manager', 'kube-controller-manager'],
  ['cloud-controller-manager', 'cloud-controller-manager'],
]);

/**
 * The lock a container's image falls back to, when no flag names one and leader election is on:
 * an old CSI sidecar's, or an old control-plane component's. None when the component reads a
 * `--config` file, which may name the lock.
 */
function imageDefaultLock(
  image: string,
  tokens: readonly Token[],
  settings: Record<string, WrittenSetting>,
): DefaultLock | undefined {
  if (settings.resourceLock !== undefined) return undefined;
  const enabled = settings.leaderElect?.value;
  const sidecar = SIDECAR_LOCK_DEFAULTS.find(
    (candidate) =>
      enabled === 'true' &&
      candidate.image.test(image) &&
      tokens.some((token) => new RegExp(`^--?${candidate.enable}(=true)?$`).test(token.text)),
  );
  if (sidecar) return { lock: sidecar.lock, which: sidecar.which, remedy: SIDECAR_REMEDY };
  const electing = electingComponentImage(image);
  if (!electing || enabled === 'false' || tokens.some((token) => /^--?config(=|$)/.test(token.text))) return undefined;
  const { program, minor } = electing;
  const component =
    program === 'hyperkube'
      ? tokens.map((token) => HYPERKUBE_COMPONENTS.get(token.text.replace(/^.*\//, ''))).find((name) => name)
      : program;
  if (component === undefined || minor >= 20) return undefined;
  if (minor < LEADER_ELECT_DEFAULT_ON_SINCE_MINOR && enabled !== 'true') return undefined;
  return {
    lock: minor >= 17 ? 'endpointsleases' : 'endpoints',
    which: `${component} v1.${minor}`,
    remedy:
      'Set --leader-elect-resource-lock=leases (and grant the component get/update on its coordination.k8s.io ' +
      'Lease and create on leases), or move to v1.20 or later, where leases is the default.',
  };
}

/** component-base's flag names (kube-controller-manager, kube-scheduler, cloud-controller-manager, ...). */
const FLAG_FIELDS: Readonly<
  Record<
    string,
    keyof Pick<
      LeaderElectionSettings,
      'leaderElect' | 'resourceLock' | 'leaseDuration' | 'renewDeadline' | 'retryPeriod'
    >
  >
> = {
  'leader-elect': 'leaderElect',
  'leader-elect-resource-lock': 'resourceLock',
  'leader-elect-lease-duration': 'leaseDuration',
  'leader-elect-renew-deadline': 'renewDeadline',
  'leader-elect-retry-period': 'retryPeriod',
  // CSI sidecars and controller-runtime managers (older sidecars: --leader-election-type).
  'leader-election-type': 'resourceLock',
  'leader-election-resource-lock': 'resourceLock',
  'leader-election-lease-duration': 'leaseDuration',
  'leader-election-renew-deadline': 'renewDeadline',
  'leader-election-retry-period': 'retryPeriod',
};

/**
 * Boolean flags other programs use to switch on Lease-based leader election: the CSI sidecars
 * (`--leader-election`) and kubebuilder scaffolds (`--enable-leader-election`).
 */
const OTHER_ENABLE_FLAGS = new Set(['leader-election', 'enable-leader-election']);

/** ConfigMap values larger than this are not component configuration; ConfigMaps cap at 1 MiB anyway. */
/** True when leader election is explicitly switched off (`--leader-elect=false`, `leaderElect: false`). */
export function leaderElectionDisabled(settings: LeaderElectionSettings): boolean {
  const value = settings.leaderElect?.value;
  return value === false || value === 'false';
}

/** True when leader election is explicitly switched on. */
export function leaderElectionEnabled(settings: LeaderElectionSettings): boolean {
  const value = settings.leaderElect?.value;
  return value === true || value === 'true';
}

/**
 * Every leader-election setting in the set: container flags of every pod template, and component
 * configs. Computed once per index: three rules read it.
 */
export function leaderElectionSettings(index: ObjectIndex): readonly LeaderElectionSettings[] {
  return index.derived(collectLeaderElectionSettings);
}

function collectLeaderElectionSettings(index: ObjectIndex): readonly LeaderElectionSettings[] {
  const found: LeaderElectionSettings[] = [];
  for (const template of index.podTemplates()) found.push(...flagSettings(template));
  for (const object of index.objects) {
    found.push(...kubeadmExtraArgsSettings(object));
    if (object.ref.kind === 'ConfigMap') {
      if (mayConfigureAComponent(index, object)) found.push(...configMapSettings(object));
    } else {
      const settings = configSettings(object, object.raw, '', `${object.ref.kind} ${object.ref.name ?? ''}`);
      if (settings) found.push(settings);
    }
  }
  return found;
}

interface Token {
  readonly text: string;
  readonly path: string;
}

/**
 * The words of a container's command and args, each with the path of the list item it came from.
 * Items are split on whitespace too, so `sh -c "kube-scheduler --leader-elect-resource-lock=endpoints"`
 * is read like the exec form.
 */
function containerTokens(container: JsonRecord, containerPath: string): Token[] {
  const tokens: Token[] = [];
  for (const field of ['command', 'args']) {
    asArray(container[field]).forEach((item, position) => {
      if (typeof item !== 'string') return;
      for (const word of item.split(/\s+/)) {
        const text = word.replace(/^['"]+|['"]+$/g, '');
        if (text !== '') tokens.push({ text, path: `${containerPath}.${field}[${position}]` });
      }
    });
  }
  return tokens;
}

function flagSettings(template: PodTemplate): LeaderElectionSettings[] {
  const result: LeaderElectionSettings[] = [];
  for (const { container, list, position } of podContainers(template.spec)) {
    const image = asString(container.image) ?? '';
    // Every flag read here contains "leader-elect", and only control-plane images elect a leader
    // without one: most containers can be passed over without splitting their command lines.
    if (!commandLineMentions(container, 'leader-elect') && !electingComponentImage(image)) continue;
    const containerPath = `${template.path}.${list}[${position}]`;
    const tokens = containerTokens(container, containerPath);
    const settings = settingsFromTokens(tokens);
    const imageDefault = imageDefaultLock(image, tokens, settings);
    if (Object.keys(settings).length === 0 && !imageDefault) continue;
    result.push({
      owner: template.owner,
      description: `container ${asString(container.name) ?? `#${position}`} of ${template.owner.ref.kind} ${describeName(template.owner)}`,
      origin: 'flags',
      podTemplate: template,
      image,
      ...(tokens.some((token) => /^--?kubeconfig(=.+)?$/.test(token.text)) ? { usesKubeconfig: true } : {}),
      ...settings,
      ...(imageDefault
        ? {
            resourceLock: { value: imageDefault.lock, path: `${containerPath}.image` },
            resourceLockDefaultOf: { which: imageDefault.which, remedy: imageDefault.remedy },
          }
        : {}),
    });
  }
  return result;
}

/** The leader-election settings among command-line words, each with the path of the word that holds its value. */
function settingsFromTokens(tokens: readonly Token[]): Record<string, WrittenSetting> {
  const settings: Record<string, WrittenSetting> = {};
  tokens.forEach((token, at) => {
    const match = /^--?([a-z-]+)(?:=(.*))?$/.exec(token.text);
    if (!match) return;
    const [, name = '', inlineValue] = match;
    if (OTHER_ENABLE_FLAGS.has(name)) {
      settings.leaderElect = { value: inlineValue ?? 'true', path: token.path, flag: name };
      return;
    }
    const field = ownEntry(FLAG_FIELDS, name);
    if (!field) return;
    if (field === 'leaderElect') {
      // A bool flag takes its value only after `=`: `--leader-elect false` leaves it true.
      settings.leaderElect = { value: inlineValue ?? 'true', path: token.path };
      return;
    }
    const next = tokens[at + 1];
    const value = inlineValue ?? (next && !next.text.startsWith('-') ? next.text : undefined);
    // `$(VAR)` is expanded by the kubelet from the environment: its value is not known here.
    if (value === undefined || value.includes('$(')) return;
    settings[field] = { value, path: inlineValue !== undefined || !next ? token.path : next.path };
  });
  return settings;
}

/**
 * Where kubeadm keeps the control plane's flags: `controllerManager.extraArgs` and
 * `scheduler.extraArgs` of a ClusterConfiguration (a map in v1beta3, a list of `{name, value}` in
 * v1beta4), on its own or inside the Cluster API objects that carry one.
 */
const CLUSTER_CONFIGURATION_PATHS: ReadonlyMap<string, ReadonlyArray<readonly string[]>> = new Map([
  ['ClusterConfiguration', [[]]],
  ['KubeadmConfig', [['spec', 'clusterConfiguration']]],
  ['KubeadmConfigTemplate', [['spec', 'template', 'spec', 'clusterConfiguration']]],
  ['KubeadmControlPlane', [['spec', 'kubeadmConfigSpec', 'clusterConfiguration']]],
  ['KubeadmControlPlaneTemplate', [['spec', 'template', 'spec', 'kubeadmConfigSpec', 'clusterConfiguration']]],
]);

function kubeadmExtraArgsSettings(object: IndexedObject): LeaderElectionSettings[] {
  const result: LeaderElectionSettings[] = [];
  for (const path of CLUSTER_CONFIGURATION_PATHS.get(object.ref.kind ?? '') ?? []) {
    const configuration = path.length === 0 ? object.raw : getRecord(object.raw, ...path);
    for (const component of ['controllerManager', 'scheduler']) {
      const args = getRecord(configuration ?? {}, component)?.extraArgs;
      const base = fieldPath(...path, component, 'extraArgs');
      const tokens: Token[] = Array.isArray(args)
        ? args.flatMap((entry, i) => {
            const name = asString(asRecord(entry)?.name);
            const value = asRecord(entry)?.value;
            return name === undefined ? [] : [{ text: `--${name}=${scalarText(value)}`, path: `${base}[${i}].value` }];
          })
        : Object.entries(asRecord(args) ?? {}).map(([name, value]) => ({
            text: `--${name}=${scalarText(value)}`,
            path: `${base}[${name}]`,
          }));
      const settings = settingsFromTokens(tokens);
      if (Object.keys(settings).length === 0) continue;
      result.push({
        owner: object,
        description: `${object.ref.kind} ${describeName(object)} ${base}`,
        origin: 'flags',
        ...settings,
      });
    }
  }
  return result;
}

/** A flag value as kubeadm writes it; anything that is not a scalar reads as empty (never stringified). */
function scalarText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

function describeName(object: IndexedObject): string {
  const name = object.ref.name ?? '<no name>';
  return object.ref.namespace ? `${object.ref.namespace}/${name}` : name;
}

/**
 * Where component configuration types keep leader election: at the top (KubeSchedulerConfiguration,
 * controller-runtime's ControllerManagerConfig), under `generic` (KubeControllerManagerConfiguration,
 * CloudControllerManagerConfiguration), or under `spec.leaderElect` (KubeFed's KubeFedConfig, whose
 * controller manager always elects a leader, on the lock `resourceLock` names).
 */
const CONFIG_LEADER_ELECTION_BLOCKS: ReadonlyArray<readonly string[]> = [
  ['leaderElection'],
  ['generic', 'leaderElection'],
  ['spec', 'leaderElect'],
];

function configSettings(
  owner: IndexedObject,
  document: JsonRecord,
  prefix: string,
  description: string,
): LeaderElectionSettings | undefined {
  const kind = asString(document.kind);
  if (kind === undefined || !/Config(uration)?$/.test(kind)) return undefined;
  const blockKeys = CONFIG_LEADER_ELECTION_BLOCKS.find((keys) => getRecord(document, ...keys) !== undefined);
  const block = blockKeys && getRecord(document, ...blockKeys);
  if (!blockKeys || !block) return undefined;
  const blockPath = [prefix, ...blockKeys].filter((part) => part !== '').join('.');
  const read = (field: string): WrittenSetting | undefined =>
    block[field] === undefined || block[field] === null
      ? undefined
      : { value: block[field], path: `${blockPath}.${field}` };
  return {
    owner,
    description,
    origin: 'config',
    leaderElect: read('leaderElect'),
    resourceLock: read('resourceLock'),
    leaseDuration: read('leaseDuration'),
    renewDeadline: read('renewDeadline'),
    retryPeriod: read('retryPeriod'),
    ...(blockKeys[blockKeys.length - 1] === 'leaderElection' ? { zeroTimingIsDefault: true } : {}),
  };
}

/** Component configuration held as a file in a ConfigMap (`data: {config.yaml: "kind: KubeSchedulerConfiguration ..."}`). */
function configMapSettings(configMap: IndexedObject): LeaderElectionSettings[] {
  const data = asRecord(configMap.raw.data);
  if (!data) return [];
  const result: LeaderElectionSettings[] = [];
  for (const [key, text] of Object.entries(data)) {
    if (typeof text !== 'string' || !text.includes('leaderElection')) continue;
    for (const document of embeddedYamlDocuments(text)) {
      const description = `${asString(document.kind)} in data key ${key} of ConfigMap ${describeName(configMap)}`;
      const settings = configSettings(configMap, document, fieldPath('data', key), description);
      if (settings) result.push(settings);
    }
  }
  return result;
}

/**
 * YAML or JSON documents of a ConfigMap value; anything that does not parse is not configuration.
 * js-yaml resolves aliases to shared references (no exponential copies), and only a few fixed
 * fields of each document are read, so alias-heavy input costs no more than its text.
 */

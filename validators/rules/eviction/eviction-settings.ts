/**
 * Where eviction settings live and how rules see them: one view per KubeletConfiguration object,
 * per container that runs the kubelet (static pods, pod templates), per kubelet unit drop-in, and
 * per kubeadm / Cluster API `nodeRegistration.kubeletExtraArgs`, per file Cluster API writes
 * onto nodes (`files:`), and per installer setting (installer-kubelet-settings.ts: kops, Talos,
 * k3s/RKE2, k3d, Kubespray).
 * Every value keeps the field path it was read from, so the same rule reports on a config field
 * (`evictionHard[nodefs.available]`), a container argument (`spec.containers[0].args[2]`) or a
 * drop-in line (`service.execStart[1]`).
 */
import { fieldPath } from '../../field-path';
import { embeddedYamlDocuments } from '../../embedded-yaml';
import { JsonRecord, asArray, asRecord, asString, getRecord } from '../../json';
import { IndexedObject, ObjectIndex } from '../../object-index';
import { commandLineMentions, podContainers } from '../../pod-templates';
import { isSystemdUnitText, parseSystemdDropIn, splitWords } from '../../systemd-drop-in';
import { CommandWord, isKubeletBinary } from './kubelet-flags';
import { kubeadmKubeletArgs } from './kubeadm-kubelet-args';
import { KIND_EVICTION_HARD, kindConfigPatches } from './kind-config-patches';
import { NodeFile, kubeadmConfigFiles } from './kubeadm-config-files';
import { EvictionSettingsView, fromKubeletCommand, fromKubeletConfiguration } from './eviction-views';
import { installerKubeletSettings } from './installer-kubelet-settings';

/** Every place in the set that configures kubelet eviction. Computed once per index. */
export function evictionSettingsViews(index: ObjectIndex): readonly EvictionSettingsView[] {
  return index.derived(collectEvictionSettingsViews);
}

function collectEvictionSettingsViews(index: ObjectIndex): readonly EvictionSettingsView[] {
  const views: EvictionSettingsView[] = [];
  for (const config of index.ofKind('KubeletConfiguration'))
    views.push(fromKubeletConfiguration(config, config.raw, ''));
  // kubeadm keeps the cluster's KubeletConfiguration in the kube-system/kubelet-config ConfigMap.
  for (const configMap of index.ofKind('ConfigMap')) {
    for (const [key, text] of Object.entries(asRecord(configMap.raw.data) ?? {})) {
      for (const document of embeddedKubeletConfigurations(text))
        views.push(fromKubeletConfiguration(configMap, document, fieldPath('data', key)));
    }
  }
  // kind merges `kubeadmConfigPatches` (cluster-wide and per node) into the configuration it generates,
  // an evictionHard map key by key onto its own.
  for (const { cluster, path, text } of kindConfigPatches(index)) {
    for (const document of embeddedKubeletConfigurations(text))
      views.push({
        ...fromKubeletConfiguration(cluster, document, fieldPath(...path)),
        mergedOnto: KIND_EVICTION_HARD,
      });
  }
  for (const template of index.podTemplates()) {
    for (const { container, list, position } of podContainers(template.spec)) {
      // Only a container that runs the kubelet configures eviction, and the binary's name is a
      // substring of its command or args: most containers are passed over unsplit.
      if (!commandLineMentions(container, 'kubelet')) continue;
      const base = `${template.path}.${list}[${position}]`;
      const words = [
        ...asArray(container.command).map((text, i) => ({ text, path: `${base}.command[${i}]` })),
        ...asArray(container.args).map((text, i) => ({ text, path: `${base}.args[${i}]` })),
      ].filter((word): word is CommandWord => typeof word.text === 'string');
      const view = fromKubeletCommand(
        template.owner,
        `container ${asString(container.name) ?? position}`,
        kubeletArguments(words),
      );
      if (view) views.push(view);
    }
  }
  for (const dropIn of index.ofKind('SystemdDropIn')) {
    const view = fromSystemdDropIn(dropIn);
    if (view) views.push(view);
  }
  views.push(...installerKubeletSettings(index));
  // Cluster API writes kubeadm patches, kubelet configuration files and unit drop-ins onto nodes.
  for (const file of kubeadmConfigFiles(index)) views.push(...fromNodeFile(file));
  // kubeadm and Cluster API: the kubelet's flags as `nodeRegistration.kubeletExtraArgs`.
  for (const args of kubeadmKubeletArgs(index)) {
    const view = fromKubeletCommand(args.object, args.where, args.words);
    if (view) views.push(args.replaces ? { ...view, replaces: args.replaces } : view);
  }
  return views;
}

/**
 * The KubeletConfiguration documents of a text held inside another object (a ConfigMap value, a
 * kind patch); the text is parsed only when it names the kind.
 */
function embeddedKubeletConfigurations(text: unknown): JsonRecord[] {
  if (typeof text !== 'string' || !text.includes('KubeletConfiguration')) return [];
  return embeddedYamlDocuments(text).filter((document) => document.kind === 'KubeletConfiguration');
}

/**
 * The words after the kubelet binary. A word with spaces (`sh -c "exec kubelet --eviction-hard=..."`)
 * is split, its pieces keeping the word's path.
 */
function kubeletArguments(words: readonly CommandWord[]): CommandWord[] {
  const flat = words.flatMap((word) =>
    /\s/.test(word.text) ? splitWords(word.text).words.map((text) => ({ text, path: word.path })) : [word],
  );
  const start = flat.findIndex((word) => isKubeletBinary(word.text));
  return start < 0 ? [] : flat.slice(start + 1);
}

/** True for a drop-in of kubelet.service, or of an unnamed unit that visibly runs the kubelet. */
export function isKubeletDropIn(object: IndexedObject): boolean {
  return isKubeletDropInObject(object.raw);
}

function isKubeletDropInObject(raw: JsonRecord): boolean {
  const unit = asString(raw.unit);
  if (unit !== undefined) return unit === 'kubelet.service' || unit === 'kubelet';
  const service = getRecord(raw, 'service');
  const runsKubelet = asArray(service?.execStart).some((entry) =>
    asArray(asRecord(entry)?.argv).some((word) => typeof word === 'string' && isKubeletBinary(word)),
  );
  const kubeletVariables = asArray(service?.environment).some((entry) =>
    /^KUBELET_/.test(asString(asRecord(entry)?.name) ?? ''),
  );
  return runsKubelet || kubeletVariables;
}

function fromSystemdDropIn(object: IndexedObject): EvictionSettingsView | undefined {
  if (!isKubeletDropIn(object)) return undefined;
  const name = asString(getRecord(object.raw, 'metadata')?.name) ?? 'drop-in';
  return fromKubeletCommand(object, `drop-in ${name}`, dropInKubeletWords(object.raw, ''));
}

/**
 * The kubelet's words in a drop-in: its `Environment=` values and the arguments after the kubelet
 * binary in `ExecStart=`, each with the path of its line (under `prefix`, where the drop-in is
 * held as text inside another object).
 */
function dropInKubeletWords(raw: JsonRecord, prefix: string): CommandWord[] {
  const at = (path: string) => (prefix === '' ? path : `${prefix}.${path}`);
  const service = getRecord(raw, 'service');
  const words: CommandWord[] = [];
  asArray(service?.environment).forEach((entry, i) => {
    const value = asString(asRecord(entry)?.value);
    if (value !== undefined)
      words.push(...splitWords(value).words.map((text) => ({ text, path: at(`service.environment[${i}]`) })));
  });
  asArray(service?.execStart).forEach((entry, i) => {
    const argv = asArray(asRecord(entry)?.argv).filter((word): word is string => typeof word === 'string');
    const start = argv.findIndex(isKubeletBinary);
    if (start >= 0) words.push(...argv.slice(start + 1).map((text) => ({ text, path: at(`service.execStart[${i}]`) })));
  });
  return words;
}

/**
 * The eviction settings in the files a Cluster API bootstrap object writes onto its nodes: a
 * KubeletConfiguration (a kubeadm patch `/etc/kubernetes/patches/kubeletconfiguration*`, which kubeadm
 * applies to the configuration it writes, or a configuration file; one ending in `.conf` is a
 * `--config-dir` drop-in) or a kubelet unit drop-in.
 */
function fromNodeFile(file: NodeFile): EvictionSettingsView[] {
  const owner = `${file.object.ref.kind ?? ''} ${file.object.ref.name ?? ''}`;
  if (isSystemdUnitText(file.content)) {
    const raw = parseSystemdDropIn(file.content, file.nodePath) as unknown as JsonRecord;
    if (!isKubeletDropInObject(raw)) return [];
    const view = fromKubeletCommand(
      file.object,
      `drop-in ${file.nodePath} of ${owner}`,
      dropInKubeletWords(raw, file.path),
    );
    return view ? [view] : [];
  }
  return embeddedKubeletConfigurations(file.content).map((document) =>
    fromKubeletConfiguration(file.object, document, file.path, /\.conf$/i.test(file.nodePath)),
  );
}

import { EVICTION_SETTING_KINDS } from '../scopes';
import { Rule } from '../../rule';
import { MERGE_DEFAULT_EVICTION_SETTINGS_SINCE, defaultEvictionHard, parseThreshold } from './eviction-signals';
import { evictionSettingsViews } from './eviction-settings';
import { mergesDefaultSignals } from './eviction-views';
import { parseFieldPath } from '../../field-path';

export const evictionHardDropsDefaultSignals: Rule = {
  id: 'eviction-hard-drops-default-signals',
  severity: 'error',
  scope: EVICTION_SETTING_KINDS,
  judgesPatches: true,
  summary: "evictionHard / --eviction-hard names some but not all of the kubelet's default signals.",
  why:
    "Setting any hard threshold replaces the kubelet's whole default map: the --eviction-hard flag " +
    'clears the defaults on first use, and the config file only applies them when evictionHard is unset. ' +
    'Incident 4: a drop-in with --eviction-hard=nodefs.available<5% stopped the node evicting everything, ' +
    "and silently removed memory.available<100Mi and nodefs.inodesFree<5%. A kind Cluster's KubeletConfiguration " +
    'patch is merged key by key onto the evictionHard kind writes itself (disk signals at 0%, no memory signal): ' +
    'it drops nothing, so it is not judged here. A kubeletExtraArgs eviction-hard flag on a kind node replaces that map: ' +
    "only a signal the Cluster's patches turned on is then lost, as a 0% threshold never triggers.",
  fix:
    'Name every default signal explicitly (memory.available: 100Mi, nodefs.available: 10%, nodefs.inodesFree: 5%, ' +
    'imagefs.available: 15%, and imagefs.inodesFree: 5% from 1.30), changing only the one you mean to; from 1.33 ' +
    "you may instead set mergeDefaultEvictionSettings: true. ballast's KubeletEvictionPolicy renders this for you.",
  example: {
    bad: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionHard:',
      '  nodefs.available: "5%"',
    ].join('\n'),
    good: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionHard:',
      '  memory.available: "100Mi"',
      '  nodefs.available: "5%"',
      '  nodefs.inodesFree: "5%"',
      '  imagefs.available: "15%"',
      '  imagefs.inodesFree: "5%"',
    ].join('\n'),
  },
  check(context) {
    const version = context.kubernetesVersion;
    const defaults = defaultEvictionHard(version);
    for (const view of evictionSettingsViews(context.index)) {
      // A map merged onto another (a kind patch onto kind's own) drops nothing of it.
      if (!view.evictionHard || view.mergedOnto || mergesDefaultSignals(view, version)) continue;
      const named = new Set(view.evictionHard.entries.map((entry) => entry.signal));
      const replaced: Readonly<Record<string, string>> = view.replaces?.signals ?? defaults;
      // A replaced threshold of 0% was off already (kind's disk signals): losing it changes nothing.
      const missing = Object.keys(replaced).filter((signal) => !named.has(signal) && !wasOff(signal, replaced[signal]));
      if (missing.length === 0) continue;
      const written = named.size === 0 ? 'no signal at all' : [...named].join(', ');
      // The map's own key: evictionHard, or an installer's name for it (Bottlerocket's eviction-hard).
      const setting = view.fromFlags ? '--eviction-hard' : String(parseFieldPath(view.evictionHard.path).pop());
      const mergeNote =
        view.mergeDefaults?.value === true
          ? ` mergeDefaultEvictionSettings has no effect before ${MERGE_DEFAULT_EVICTION_SETTINGS_SINCE} (target ${version}).`
          : '';
      context.report(view.object, {
        path: view.evictionHard.path,
        message:
          `${view.where}: ${setting} names ${written}, which replaces ${view.replaces?.what ?? "the kubelet's defaults"}: ` +
          `${missing.map((signal) => `${signal} (${view.replaces ? 'was' : 'default'} ${replaced[signal]})`).join(', ')} ` +
          `${missing.length === 1 ? 'gets' : 'get'} no hard threshold at all, so the node runs out of it before the kubelet evicts anything.${mergeNote}`,
        fix:
          `Add ${missing.map((signal) => `${signal}<${replaced[signal]}`).join(', ')} to ${setting}` +
          (version.atLeast(MERGE_DEFAULT_EVICTION_SETTINGS_SINCE) && !view.fromFlags && !view.withoutMergeDefaultsField
            ? ', or set mergeDefaultEvictionSettings: true.'
            : '.'),
      });
    }
  },
};

/** A threshold of 0% (or 100%) never triggers: the signal was off before anything replaced it. */
function wasOff(signal: string, value: string | undefined): boolean {
  const parsed = value === undefined ? undefined : parseThreshold(signal, value);
  return parsed?.ok === true && parsed.disables;
}

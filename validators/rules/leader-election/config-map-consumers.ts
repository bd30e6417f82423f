import { asArray, asString, getRecord } from '../../json';
import { IndexedObject, ObjectIndex, PodTemplate, sameNamespace } from '../../object-index';
import { commandLineMentions, podContainers } from '../../pod-templates';

/** `--config` or `--config=FILE`, the flag by which a Kubernetes component reads its configuration file. */
const CONFIG_FLAG = /^['"]?--config(?:=|['"]?$)/;

/**
 * False when pods of the input mount the ConfigMap and none of their containers passes `--config`:
 * its files are then no component's configuration, whatever they say. JupyterHub's user-scheduler
 * (zero-to-jupyterhub before 1.0) mounts a KubeSchedulerConfiguration beside a policy file and runs
 * kube-scheduler v1.16 with `--policy-config-file` alone. A ConfigMap that no pod of the input
 * mounts may be read by one outside it: true.
 */
export function mayConfigureAComponent(index: ObjectIndex, configMap: IndexedObject): boolean {
  // Copies of one ConfigMap (same name and namespace) have the same readers: judged once.
  const verdicts = index.derived(newVerdicts);
  const key = `${configMap.ref.namespace ?? ''}\u0000${configMap.ref.name ?? ''}`;
  let verdict = verdicts.get(key);
  if (verdict === undefined) {
    const mounting = index.derived(configMapMounts).get(configMap.ref.name ?? '') ?? [];
    const consumers = mounting.filter((mount) => sameNamespace(mount.template.owner, configMap));
    verdict = consumers.length === 0 || consumers.some((mount) => mount.passesConfig);
    verdicts.set(key, verdict);
  }
  return verdict;
}

/** The verdicts of one validation, by ConfigMap namespace and name (`derived` keeps one map per index). */
function newVerdicts(): Map<string, boolean> {
  return new Map();
}

/** A pod template that mounts a ConfigMap, and whether a container of it passes `--config`. */
interface ConfigMapMount {
  readonly template: PodTemplate;
  readonly passesConfig: boolean;
}

/** The pod templates that mount a ConfigMap (a `configMap` volume or a projected source), by the ConfigMap's name. */
function configMapMounts(index: ObjectIndex): ReadonlyMap<string, ConfigMapMount[]> {
  const byName = new Map<string, ConfigMapMount[]>();
  for (const template of index.podTemplates()) {
    const names = new Set<string>();
    for (const volume of asArray(template.spec.volumes)) {
      const direct = asString(getRecord(volume, 'configMap')?.name);
      if (direct !== undefined) names.add(direct);
      for (const source of asArray(getRecord(volume, 'projected')?.sources)) {
        const projected = asString(getRecord(source, 'configMap')?.name);
        if (projected !== undefined) names.add(projected);
      }
    }
    if (names.size === 0) continue;
    const mount = { template, passesConfig: passesConfigFlag(template) };
    for (const name of names) {
      const list = byName.get(name);
      if (list) list.push(mount);
      else byName.set(name, [mount]);
    }
  }
  return byName;
}

function passesConfigFlag(template: PodTemplate): boolean {
  return podContainers(template.spec).some(
    ({ container }) =>
      commandLineMentions(container, '--config') &&
      [container.command, container.args].some((items) =>
        asArray(items).some(
          (item) => typeof item === 'string' && item.split(/\s+/).some((word) => CONFIG_FLAG.test(word)),
        ),
      ),
  );
}

import { JsonRecord, asArray, asString, getRecord } from './json';
import { ObjectIndex } from './object-index';
import { ARCHITECTURE_SUFFIX } from './image-architecture';

/**
 * An external provisioner recognized by its container image, with the name it answers to when its
 * Deployment does not set one (PROVISIONER_NAME or a name flag).
 */
export interface ProvisionerImage {
  readonly image: RegExp;
  readonly defaultName?: string;
}

/**
 * An image of that name, in any registry, with a tag or digest or neither, and with or without the
 * architecture suffix of a single-architecture build (`nfs-client-provisioner-arm:latest`).
 */
export function imageNamed(name: string): RegExp {
  return new RegExp(`(^|/)${name}${ARCHITECTURE_SUFFIX}(:|@|$)`);
}

/** The flags that name a provisioner on these images' command lines (`-provisioner=x`, `--provisioner-name x`). */
const NAME_FLAG = /^--?(provisioner|provisioner-name)(=(.*))?$/;

/**
 * The names under which the input runs one of `provisioners`: what each such container sets in
 * PROVISIONER_NAME (a value, or a ConfigMap key the input holds) or in its name flag, else its
 * image's default. A StorageClass names its provisioner so; the image says what its volumes are.
 */
export function declaredProvisionerNames(
  index: ObjectIndex,
  provisioners: readonly ProvisionerImage[],
): ReadonlySet<string> {
  const names = new Set<string>();
  for (const template of index.podTemplates()) {
    for (const value of asArray(template.spec.containers)) {
      const container = getRecord(value);
      const image = asString(container?.image) ?? '';
      const provisioner = provisioners.find((candidate) => candidate.image.test(image));
      if (!container || !provisioner) continue;
      const named = [...environmentNames(container, index, template.owner.ref.namespace), ...flagNames(container)];
      for (const name of named.length > 0 ? named : [provisioner.defaultName ?? '']) if (name) names.add(name);
    }
  }
  return names;
}

function environmentNames(container: JsonRecord, index: ObjectIndex, namespace: string | undefined): string[] {
  return asArray(container.env).flatMap((entry) => {
    const variable = getRecord(entry);
    if (variable?.name !== 'PROVISIONER_NAME') return [];
    const value = asString(variable.value);
    if (value) return [value];
    const reference = getRecord(variable, 'valueFrom', 'configMapKeyRef');
    const configMap = index.get('ConfigMap', namespace, asString(reference?.name));
    const fromConfigMap = asString(getRecord(configMap?.raw, 'data')?.[asString(reference?.key) ?? '']);
    return fromConfigMap ? [fromConfigMap] : [];
  });
}

function flagNames(container: JsonRecord): string[] {
  const words = [...asArray(container.command), ...asArray(container.args)].map((word) => asString(word) ?? '');
  return words.flatMap((word, position) => {
    const flag = NAME_FLAG.exec(word);
    if (!flag) return [];
    const value = flag[2] !== undefined ? flag[3] : words[position + 1];
    return value ? [value] : [];
  });
}

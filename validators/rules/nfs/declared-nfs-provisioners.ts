import { JsonRecord, asArray, asString, getRecord } from '../../json';
import { ObjectIndex } from '../../object-index';
import { ARCHITECTURE_SUFFIX } from '../../image-architecture';

/**
 * External provisioners whose PersistentVolumes are in-tree `nfs:` volumes, by container image, with
 * the name each answers to when its Deployment does not set one:
 * - nfs-subdir-external-provisioner and nfs-client-provisioner (PROVISIONER_NAME, no default);
 * - the NFS Ganesha server provisioner (`-provisioner`, default `example.com/nfs`;
 *   kubernetes-incubator/external-storage nfs/cmd/nfs-provisioner/main.go, nfs/pkg/volume/provision.go);
 * - efs-provisioner (PROVISIONER_NAME, often from its ConfigMap's `provisioner.name`; aws/efs/cmd
 *   builds an `NFSVolumeSource` on the file system's DNS name);
 * - freenas-provisioner (`--provisioner-name` / PROVISIONER_NAME, default `freenas.org/nfs`;
 *   nmaupu/freenas-provisioner cli/command.go, provisioner/provisioner.go).
 */
const IN_TREE_NFS_PROVISIONERS: ReadonlyArray<{ readonly image: RegExp; readonly defaultName?: string }> = [
  // Mirrors shorten the name too (`registry.cn-hangzhou.aliyuncs.com/.../nfs-subdir-provisioner`).
  { image: imageNamed('(nfs-subdir(-external)?-provisioner|nfs-client-provisioner)') },
  { image: imageNamed('nfs-provisioner'), defaultName: 'example.com/nfs' },
  { image: imageNamed('efs-provisioner') },
  { image: imageNamed('freenas-provisioner'), defaultName: 'freenas.org/nfs' },
];

/**
 * An image of that name, in any registry, with a tag or digest or neither, and with or without the
 * architecture suffix of a single-architecture build (`nfs-client-provisioner-arm:latest`).
 */
function imageNamed(name: string): RegExp {
  return new RegExp(`(^|/)${name}${ARCHITECTURE_SUFFIX}(:|@|$)`);
}

/** The flags that name a provisioner on these images' command lines (`-provisioner=x`, `--provisioner-name x`). */
const NAME_FLAG = /^--?(provisioner|provisioner-name)(=(.*))?$/;

/**
 * The names under which the input runs a provisioner of in-tree NFS volumes: what each such
 * container sets in PROVISIONER_NAME (a value, or a ConfigMap key the input holds) or in its
 * name flag, else its image's default.
 */
export function declaredNfsProvisionerNames(index: ObjectIndex): ReadonlySet<string> {
  const names = new Set<string>();
  for (const template of index.podTemplates()) {
    for (const value of asArray(template.spec.containers)) {
      const container = getRecord(value);
      const image = asString(container?.image) ?? '';
      const provisioner = IN_TREE_NFS_PROVISIONERS.find((candidate) => candidate.image.test(image));
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

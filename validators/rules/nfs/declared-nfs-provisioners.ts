import { ObjectIndex } from '../../object-index';
import { ProvisionerImage, declaredProvisionerNames, imageNamed } from '../../declared-provisioners';

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
const IN_TREE_NFS_PROVISIONERS: readonly ProvisionerImage[] = [
  // Mirrors shorten the name too (`registry.cn-hangzhou.aliyuncs.com/.../nfs-subdir-provisioner`).
  { image: imageNamed('(nfs-subdir(-external)?-provisioner|nfs-client-provisioner)') },
  { image: imageNamed('nfs-provisioner'), defaultName: 'example.com/nfs' },
  { image: imageNamed('efs-provisioner') },
  { image: imageNamed('freenas-provisioner'), defaultName: 'freenas.org/nfs' },
];

/** The names under which the input runs a provisioner of in-tree NFS volumes. */
export function declaredNfsProvisionerNames(index: ObjectIndex): ReadonlySet<string> {
  return declaredProvisionerNames(index, IN_TREE_NFS_PROVISIONERS);
}

import { asString, getRecord } from '../../json';
import { IndexedObject, ObjectIndex } from '../../object-index';
import { storageClassNameOf } from '../../storage-class-name';
import { claimTemplatesOf } from '../stateful-storage/claims';
import { Rule } from '../../rule';
import { NFS_CSI_DRIVER } from './nfs-volumes';

const REQUIRED_PARAMETERS = ['server', 'share'] as const;

export const nfsCsiStorageClassIncomplete: Rule = {
  id: 'nfs-csi-storage-class-incomplete',
  severity: 'error',
  scope: ['StorageClass'],
  summary: 'A csi-driver-nfs StorageClass (nfs.csi.k8s.io) lacks the server or share parameter.',
  why:
    'csi-driver-nfs needs parameters.server and parameters.share to create a volume: without them every claim ' +
    'of the class stays Pending and the provisioner logs an error nobody reads.',
  fix: 'Set parameters.server (NFS server host name or IP) and parameters.share (exported path, e.g. /exports).',
  example: {
    bad: [
      'apiVersion: storage.k8s.io/v1',
      'kind: StorageClass',
      'metadata: {name: nfs-csi}',
      'provisioner: nfs.csi.k8s.io',
      'parameters: {server: nfs.example.com}',
    ].join('\n'),
    good: [
      'apiVersion: storage.k8s.io/v1',
      'kind: StorageClass',
      'metadata: {name: nfs-csi}',
      'provisioner: nfs.csi.k8s.io',
      'parameters: {server: nfs.example.com, share: /exports}',
      'mountOptions: [nfsvers=4.1]',
    ].join('\n'),
  },
  check(context) {
    for (const storageClass of context.index.ofKind('StorageClass')) {
      if (asString(storageClass.raw.provisioner) !== NFS_CSI_DRIVER) continue;
      const parameters = getRecord(storageClass.raw, 'parameters');
      const staticOnly = onlyLabelsStaticVolumes(context.index, storageClass.ref.name);
      for (const parameter of REQUIRED_PARAMETERS) {
        const value = asString(parameters?.[parameter]);
        if (value !== undefined && value.trim() !== '') continue;
        const message =
          `csi-driver-nfs StorageClass ${storageClass.ref.name ?? ''} has no parameters.${parameter}: ` +
          'claims of this class will stay Pending.';
        context.report(
          storageClass,
          staticOnly
            ? {
                path: `parameters.${parameter}`,
                severity: 'warning',
                message:
                  `${message} Every claim of it in the input binds a PersistentVolume written for it, so nothing is ` +
                  'provisioned from it today; the first claim that is will stay Pending.',
              }
            : { path: `parameters.${parameter}`, message },
        );
      }
    }
  },
};

/**
 * True when the input holds PersistentVolumes of the class and every claim of it binds one (by
 * volumeName, claimRef or class), and no StatefulSet claim template names it: the class then only
 * labels volumes written by hand (pindaroli/k8s-lab), and csi-driver-nfs provisions nothing from it.
 */
function onlyLabelsStaticVolumes(index: ObjectIndex, className: string | undefined): boolean {
  if (className === undefined) return false;
  const uses = index.derived(classUses).get(className);
  return uses !== undefined && uses.staticVolumes && !uses.provisioned;
}

/** What the input does with a class: holds volumes of it, and provisions from it (a claim no volume binds, a claim template). */
interface ClassUse {
  staticVolumes: boolean;
  provisioned: boolean;
}

/** Per class name, how the input uses it: one pass over the volumes, claims and claim templates. */
function classUses(index: ObjectIndex): ReadonlyMap<string, ClassUse> {
  const uses = new Map<string, ClassUse>();
  const useOf = (className: string): ClassUse => {
    let use = uses.get(className);
    if (!use) uses.set(className, (use = { staticVolumes: false, provisioned: false }));
    return use;
  };
  const classOf = (object: IndexedObject) => storageClassNameOf(getRecord(object.raw, 'spec'), object.annotations);
  for (const volume of index.ofKind('PersistentVolume')) {
    const className = classOf(volume);
    if (className !== undefined) useOf(className).staticVolumes = true;
  }
  for (const claim of index.ofKind('PersistentVolumeClaim')) {
    const className = classOf(claim);
    if (className !== undefined && !index.volumeForClaim(claim)) useOf(className).provisioned = true;
  }
  for (const statefulSet of index.ofKind('StatefulSet'))
    for (const template of claimTemplatesOf(statefulSet)) {
      const className = storageClassNameOf(template.spec, template.annotations);
      if (className !== undefined) useOf(className).provisioned = true;
    }
  return uses;
}

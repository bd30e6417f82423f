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
  const ofClass = (object: IndexedObject) =>
    storageClassNameOf(getRecord(object.raw, 'spec'), object.annotations) === className;
  if (!index.ofKind('PersistentVolume').some(ofClass)) return false;
  if (index.ofKind('PersistentVolumeClaim').some((claim) => ofClass(claim) && !index.volumeForClaim(claim)))
    return false;
  return !index
    .ofKind('StatefulSet')
    .some((statefulSet) =>
      claimTemplatesOf(statefulSet).some(
        (template) => storageClassNameOf(template.spec, template.annotations) === className,
      ),
    );
}

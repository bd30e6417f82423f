import { asString, getRecord } from '../../json';
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
      for (const parameter of REQUIRED_PARAMETERS) {
        const value = asString(parameters?.[parameter]);
        if (value !== undefined && value.trim() !== '') continue;
        context.report(storageClass, {
          path: `parameters.${parameter}`,
          message:
            `csi-driver-nfs StorageClass ${storageClass.ref.name ?? ''} has no parameters.${parameter}: ` +
            'claims of this class will stay Pending.',
        });
      }
    }
  },
};

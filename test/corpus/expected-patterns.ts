/**
 * Which rules catch each pattern of ../shared/corpus/EXPECTED.md. A row is caught when one of its
 * pattern's rules reports an unsuppressed error on that object of that file. Each rule area adds
 * the patterns it covers.
 */
export const RULES_BY_PATTERN: Readonly<Record<string, readonly string[]>> = {
  'PV with metadata.namespace': ['persistent-volume-with-namespace'],
  'persistentVolumeReclaimPolicy: Recycle': ['recycle-reclaim-policy'],
  'Deployment (RollingUpdate/default strategy or >1 replica) mounting RWO PVC': ['rwo-claim-in-rolling-deployment'],
  'hostPath used for application data': ['host-path-for-application-data'],
  'in-tree nfs volume without nodeAffinity': ['nfs-volume-without-node-prerequisite'],
  'leader election using endpoints/configmaps lock': [
    'leader-lock-rbac-on-endpoints-or-configmaps',
    'legacy-leader-election-lock',
  ],
};

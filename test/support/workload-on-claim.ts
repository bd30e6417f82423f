/**
 * The YAML lines of a one-replica workload of `kind` whose pod mounts ReadWriteOnce claim `data`
 * of gp3 (an attached disk), and of the claim: `specLines` go into the workload's spec.
 */
export function workloadOnClaim(apiVersion: string, kind: string, specLines: readonly string[]): string[] {
  return [
    `apiVersion: ${apiVersion}`,
    `kind: ${kind}`,
    'metadata: {name: db}',
    'spec:',
    '  replicas: 1',
    ...specLines,
    '  template:',
    '    metadata: {labels: {app: db}}',
    '    spec:',
    '      containers: [{name: db, image: postgres:16, volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]}]',
    '      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]',
    '---',
    'apiVersion: v1',
    'kind: PersistentVolumeClaim',
    'metadata: {name: data}',
    'spec: {accessModes: [ReadWriteOnce], storageClassName: gp3, resources: {requests: {storage: 1Gi}}}',
    '',
  ];
}

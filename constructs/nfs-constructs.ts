/** NFS and node-prerequisite constructs (one export line in constructs/index.ts). */
export * from './nfs-volume';
export * from './nfs-csi-storage-class';
export * from './node-prerequisite-affinity';

import { Rule } from '../../rule';
import { hostPathForApplicationData } from './host-path-for-application-data';
import { inTreeCephVolume } from './in-tree-ceph-volume';
import { multiNodeAccessOnRbdFilesystem } from './multi-node-access-on-rbd-filesystem';
import { rbdStorageClassMissingParameters } from './rbd-storage-class-missing-parameters';
import { rwoClaimInRollingDeployment } from './rwo-claim-in-rolling-deployment';
import { statefulSetWithoutHeadlessService } from './stateful-set-without-headless-service';

/** Incidents 1 and 2 (RBD volumes on the wrong workload or with the wrong access mode), and hostPath data (incident 3). */
export const STATEFUL_STORAGE_RULES: readonly Rule[] = [
  rwoClaimInRollingDeployment,
  multiNodeAccessOnRbdFilesystem,
  inTreeCephVolume,
  rbdStorageClassMissingParameters,
  statefulSetWithoutHeadlessService,
  hostPathForApplicationData,
];

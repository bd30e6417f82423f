import { Construct } from 'constructs';
import { KubeletEvictionDropIns } from '../constructs';

/**
 * Kubelet eviction for the "small-disk" node pool, the nodes of incident 4 (6 GiB root disks):
 * nodefs.available is lowered to 5% on purpose, every other default signal stays named, and a
 * soft threshold at 10% evicts gracefully (2 minutes below it, 60 s for pods to stop) before the
 * hard one kills. Rendered under dist/nodes/small-disk/ at synth; the node-config stack carries
 * the files to the nodes.
 */
export class NodeEviction extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new KubeletEvictionDropIns(this, 'small-disk', {
      pool: 'small-disk',
      hard: { 'nodefs.available': '5%' },
      soft: { 'nodefs.available': { threshold: '10%', gracePeriod: '2m' } },
      minimumReclaim: { 'nodefs.available': '500Mi' },
      maxPodGracePeriodSeconds: 60,
    });
  }
}

import { Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-27';
import { Construct } from 'constructs';
import { LeaderLease } from '../constructs';

/**
 * A singleton worker run as two replicas for fast fail-over: both pods start, one holds the
 * `coordination.k8s.io` Lease and works, the other waits to take over. The ServiceAccount may
 * create leases and get/update only this one; each pod's holder identity is its own name.
 */
export class LeaderChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: 'reports', disableResourceNameHashes: true });
    const serviceAccount = new kplus.ServiceAccount(this, 'service-account', {
      metadata: { name: 'report-runner' },
      automountToken: true,
    });
    const lease = new LeaderLease(this, 'lease', { name: 'report-runner' });
    lease.grantLeadership(serviceAccount);

    const deployment = new kplus.Deployment(this, 'runner', {
      metadata: { name: 'report-runner' },
      replicas: 2,
      serviceAccount,
      // The elector talks to the API server: it needs the account's token in the pod.
      automountServiceAccountToken: true,
      containers: [
        {
          name: 'runner',
          image: 'registry.example.com/report-runner:1.4.2',
          portNumber: 8080,
          resources: {
            cpu: { request: kplus.Cpu.millis(100), limit: kplus.Cpu.millis(500) },
            memory: { request: Size.mebibytes(128), limit: Size.mebibytes(256) },
          },
        },
      ],
    });
    lease.attachTo(deployment);
  }
}

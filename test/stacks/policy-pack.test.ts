import type { ReportViolation, StackValidationArgs } from '@pulumi/policy';
import { ballastStackPolicies, ballastStackViolations } from '../../stacks/policy-pack/ballast-policies';
import { DEFAULT_KUBERNETES_VERSION } from '../../validators';
import { StackResource, kubernetesObjectOf, plainCopy } from '../../stacks/policy-pack/kubernetes-resources';

// Fake resources as Pulumi hands them to a stack policy: type token, props (the object), urn.
const URN = (type: string, name: string) => `urn:pulumi:dev::shop::${type}::${name}`;

function resource(type: string, name: string, props: Record<string, unknown>): StackResource {
  return { type, name, urn: URN(type, name), props };
}

const claim = resource('kubernetes:core/v1:PersistentVolumeClaim', 'db-data', {
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'db-data', namespace: 'shop' },
  spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'ceph-rbd', resources: { requests: { storage: '10Gi' } } },
});

function deployment(extraSpec: Record<string, unknown> = {}, annotations?: Record<string, string>): StackResource {
  // Before creation Pulumi props may lack apiVersion/kind: the mapping derives them from the type.
  return resource('kubernetes:apps/v1:Deployment', 'db', {
    metadata: { name: 'db', namespace: 'shop', ...(annotations ? { annotations } : {}) },
    spec: {
      ...extraSpec,
      selector: { matchLabels: { app: 'db' } },
      template: {
        metadata: { labels: { app: 'db' } },
        spec: {
          containers: [
            {
              name: 'db',
              image: 'postgres:16',
              volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql/data' }],
            },
          ],
          volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'db-data' } }],
        },
      },
    },
  });
}

const namespacedVolume = resource('kubernetes:core/v1:PersistentVolume', 'static-data', {
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name: 'static-data', namespace: 'shop' },
  spec: {
    capacity: { storage: '1Gi' },
    accessModes: ['ReadWriteOnce'],
    csi: { driver: 'rbd.csi.ceph.com', volumeHandle: 'x' },
  },
});

/** Runs one of the pack's policies the way the policy server would, collecting its violations. */
function runPolicy(name: string, resources: StackResource[], config: object = {}) {
  const policy = ballastStackPolicies().find((p) => p.name === name)!;
  const reported: Array<{ message: string; urn?: string }> = [];
  const report: ReportViolation = (message, urn) => {
    reported.push({ message, urn });
  };
  const args = {
    resources,
    stackTags: new Map(),
    getConfig: () => config,
    notApplicable: () => {
      throw new Error('not applicable');
    },
  } as unknown as StackValidationArgs;
  void policy.validateStack(args, report); // synchronous: ballast's stack policies return nothing to await
  return { policy, reported };
}

describe('Pulumi policy pack: ballast stack policies', () => {
  test('errors are mandatory and warnings advisory, both stack policies with a config schema', () => {
    const policies = ballastStackPolicies();
    expect(policies.map((p) => [p.name, p.enforcementLevel])).toEqual([
      ['ballast-errors', 'mandatory'],
      ['ballast-warnings', 'advisory'],
    ]);
    for (const policy of policies)
      expect(Object.keys(policy.configSchema!.properties)).toEqual(['kubernetesVersion', 'rules', 'parameters']);
  });

  test('incident 1 across two resources: the rolling Deployment on the RWO claim is a mandatory violation on the Deployment', () => {
    const { reported } = runPolicy('ballast-errors', [claim, deployment(), namespacedVolume]);
    const rolling = reported.find((v) => v.message.startsWith('error rwo-claim-in-rolling-deployment:'));
    expect(rolling).toEqual({
      urn: URN('kubernetes:apps/v1:Deployment', 'db'),
      message: expect.stringContaining(
        'Deployment shop/db at urn:pulumi:dev::shop::kubernetes:apps/v1:Deployment::db, field spec.template.spec.volumes[0].persistentVolumeClaim: ',
      ),
    });
    expect(rolling!.message).toContain(`Target: Kubernetes ${DEFAULT_KUBERNETES_VERSION} (the default`);
    expect(rolling!.message).toContain('ballast.dev/suppress.rwo-claim-in-rolling-deployment');
    expect(reported).toContainEqual({
      urn: URN('kubernetes:core/v1:PersistentVolume', 'static-data'),
      message: expect.stringMatching(
        /^error persistent-volume-with-namespace: PersistentVolume shop\/static-data at \S+, field metadata.namespace: /,
      ),
    });
  });

  test('the same service done right has no violations', () => {
    const fixedVolume = {
      ...namespacedVolume,
      props: { ...namespacedVolume.props, metadata: { name: 'static-data' } },
    };
    const resources = [claim, deployment({ replicas: 1, strategy: { type: 'Recreate' } }), fixedVolume];
    expect(runPolicy('ballast-errors', resources).reported).toEqual([]);
    expect(runPolicy('ballast-warnings', resources).reported).toEqual([]);
  });

  test('a suppression annotation with a reason silences the finding', () => {
    const suppressed = deployment(
      {},
      { 'ballast.dev/suppress.rwo-claim-in-rolling-deployment': 'migrating to RbdStatefulSet, OPS-7' },
    );
    expect(runPolicy('ballast-errors', [claim, suppressed]).reported).toEqual([]);
  });

  test('config: a rule set to warning moves to the advisory policy; off drops it; mistakes are named as at every door', () => {
    const overrides = { rules: { 'rwo-claim-in-rolling-deployment': 'warning' } };
    expect(runPolicy('ballast-errors', [claim, deployment()], overrides).reported).toEqual([]);
    expect(runPolicy('ballast-warnings', [claim, deployment()], overrides).reported.map((v) => v.message)).toEqual([
      expect.stringMatching(/^warning rwo-claim-in-rolling-deployment:/),
    ]);
    expect(
      ballastStackViolations([claim, deployment()], 'error', { rules: { 'rwo-claim-in-rolling-deployment': 'off' } }),
    ).toEqual([]);
    expect(() => runPolicy('ballast-errors', [claim], { kubernetesVersion: 1.3, severityOverrides: {} })).toThrow(
      /invalid ballast options in the ballast policy pack config:\n {2}- severityOverrides: unknown option.*\n {2}- kubernetesVersion: Kubernetes version 1.3 is a number/,
    );
  });

  test('resources that are not one whole Kubernetes object are ignored', () => {
    const others = [
      resource('aws:s3/bucket:Bucket', 'b', { metadata: { namespace: 'x' } }),
      resource('pulumi:providers:kubernetes', 'k8s', {}),
      resource('kubernetes:core/v1:PersistentVolumePatch', 'p', { metadata: { name: 'p', namespace: 'x' } }),
      resource('kubernetes:yaml/v2:ConfigGroup', 'g', { resources: [] }),
    ];
    expect(others.map(kubernetesObjectOf)).toEqual([undefined, undefined, undefined, undefined]);
    expect(ballastStackViolations(others, 'error')).toEqual([]);
  });

  test('type tokens map to apiVersion and kind; custom resources keep theirs', () => {
    expect(kubernetesObjectOf(resource('kubernetes:core/v1:PersistentVolume', 'v', {}))?.object).toMatchObject({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
    });
    expect(kubernetesObjectOf(resource('kubernetes:storage.k8s.io/v1:StorageClass', 's', {}))?.object).toMatchObject({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
    });
    expect(
      kubernetesObjectOf(
        resource('kubernetes:apiextensions.k8s.io:CustomResource', 'c', {
          apiVersion: 'ceph.rook.io/v1',
          kind: 'CephCluster',
        }),
      )?.object,
    ).toMatchObject({ apiVersion: 'ceph.rook.io/v1', kind: 'CephCluster' });
    expect(kubernetesObjectOf(resource('kubernetes:apiextensions.k8s.io:CustomResource', 'c', {}))).toBeUndefined();
  });

  test('values unknown during preview are left out instead of failing the whole stack policy', () => {
    class UnknownValueError extends Error {}
    const previewProps = new Proxy({ metadata: { namespace: 'shop' }, spec: {} } as Record<string, unknown>, {
      get(target, key) {
        if (key === 'spec') throw new UnknownValueError("Object value at .spec can't be known during preview");
        return target[key as string];
      },
    });
    expect(plainCopy(previewProps)).toEqual({ metadata: { namespace: 'shop' } });
    const volume = resource('kubernetes:core/v1:PersistentVolume', 'static-data', previewProps);
    expect(runPolicy('ballast-errors', [volume]).reported.map((v) => v.message)).toEqual([
      expect.stringMatching(/^error persistent-volume-with-namespace:/),
    ]);
    const otherError = new Proxy(
      {},
      {
        ownKeys: () => ['x'],
        getOwnPropertyDescriptor: () => ({ enumerable: true, configurable: true }),
        get: () => {
          throw new TypeError('boom');
        },
      },
    );
    expect(() => plainCopy(otherError)).toThrow('boom');
  });
});

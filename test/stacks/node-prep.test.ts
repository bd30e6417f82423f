import { NodeConfigStackConfig, resolveNodeConfig } from '../../stacks/node-config/config';
import * as fs from 'fs';
import * as path from 'path';
import * as jsYaml from 'js-yaml';
import { NODE_PREP_STEP_PROVIDERS, NodePrepStepProvider } from '../../stacks/node-config/extensions';
import { NFS_CLIENT, RBD_CLIENT } from '../../validators/node-prerequisites';
import { RegisteredResource as Registered, deployNodePrep, setRecordingPulumiMocks } from '../support/pulumi-mocks';

/** The node-config stack under pulumi.runtime.setMocks (no Pulumi CLI, no cluster). */
beforeAll(setRecordingPulumiMocks);

const config: NodeConfigStackConfig = {
  nodeGroups: [
    {
      name: 'storage',
      nodes: ['worker-1', 'worker-2'],
      prerequisites: ['nfs-client'],
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'storage', effect: 'NoSchedule' }],
    },
    { name: 'legacy-ceph', nodes: ['worker-9'], prerequisites: ['nfs-client', 'rbd-client'] },
  ],
};

async function deploy(
  stackConfig: NodeConfigStackConfig,
  providers: ReadonlyArray<NodePrepStepProvider<unknown>> = [],
) {
  return (await deployNodePrep(stackConfig, providers)).resources;
}
const byName = (resources: Registered[], name: string) => {
  const found = resources.find((r) => r.name === name);
  if (!found) throw new Error(`no resource ${name}: ${resources.map((r) => r.name).join(', ')}`);
  return found;
};

describe('node-config stack', () => {
  test("one DaemonSet per group, restricted to the group's nodes by name, with its tolerations", async () => {
    const resources = await deploy(config);
    const daemonSets = resources.filter((r) => r.type === 'kubernetes:apps/v1:DaemonSet');
    expect(daemonSets.map((r) => r.inputs.metadata.name).sort()).toEqual([
      'node-prep-legacy-ceph',
      'node-prep-storage',
    ]);
    const spec = byName(resources, 'ballast-storage').inputs.spec;
    expect(spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution).toEqual({
      nodeSelectorTerms: [
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['worker-1', 'worker-2'] }] },
      ],
    });
    expect(spec.template.spec.tolerations).toEqual([
      { key: 'dedicated', operator: 'Equal', value: 'storage', effect: 'NoSchedule' },
    ]);
  });

  test('enters the host (privileged, hostPID, nsenter) only in init containers, with no service account token', async () => {
    const pod = byName(await deploy(config), 'ballast-storage').inputs.spec.template.spec;
    expect(pod.hostPID).toBe(true);
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.hostNetwork).toBeUndefined();
    expect(pod.initContainers.map((c: { name: string }) => c.name)).toEqual(['prerequisites', 'verify']);
    for (const container of pod.initContainers) expect(container.securityContext.privileged).toBe(true);
    // The one container that stays up holds no privilege, no host mount and no script.
    expect(pod.containers).toHaveLength(1);
    expect(pod.containers[0].securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 65534,
      runAsGroup: 65534,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod.containers[0].volumeMounts).toBeUndefined();
    expect(pod.containers[0].command.join(' ')).not.toContain('nsenter');
    const [install] = pod.initContainers;
    expect(install.command.join(' ')).toContain(
      "nsenter --target 1 --mount --uts --ipc --net --pid -- sh -s -- 'install' < /ballast/node-prep.sh",
    );
    expect(install.env).toEqual([
      {
        name: 'BALLAST_PREREQUISITES',
        value: 'nfs-client|nfs-common|nfs-utils|nfs-client|/sbin/mount.nfs /usr/sbin/mount.nfs',
      },
    ]);
  });

  test('runs the node-prep script from templates/ out of a ConfigMap', async () => {
    const resources = await deploy(config);
    const scripts = byName(resources, 'ballast-scripts').inputs;
    const fs = await import('fs');
    expect(scripts.data['node-prep.sh']).toBe(fs.readFileSync(`${__dirname}/../../templates/node-prep.sh`, 'utf8'));
    const pod = byName(resources, 'ballast-storage').inputs.spec.template.spec;
    expect(pod.volumes).toEqual([{ name: 'scripts', configMap: { name: 'node-prep-scripts', defaultMode: 0o444 } }]);
    expect(pod.initContainers[0].volumeMounts).toEqual([{ name: 'scripts', mountPath: '/ballast', readOnly: true }]);
  });

  test('is Ready only when the verification passes on the host, and rolls one node at a time', async () => {
    const spec = byName(await deploy(config), 'ballast-storage').inputs.spec;
    expect(spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    const verified = spec.template.spec.initContainers.at(-1);
    expect(verified.name).toBe('verify');
    expect(verified.command).toEqual([
      '/bin/sh',
      '-c',
      "nsenter --target 1 --mount --uts --ipc --net --pid -- sh -s -- 'verify' < /ballast/node-prep.sh",
    ]);
    expect(verified.env[0].name).toBe('BALLAST_PREREQUISITES');
  });

  test("labels each node with its prerequisites only after its group's DaemonSet (dependsOn)", async () => {
    const resources = await deploy(config);
    const patches = resources.filter((r) => r.type === 'kubernetes:core/v1:NodePatch');
    expect(patches.map((r) => r.inputs.metadata.name).sort()).toEqual(['worker-1', 'worker-2', 'worker-9']);
    expect(byName(resources, 'ballast-storage-worker-1').inputs.metadata.labels).toEqual({
      [NFS_CLIENT.label.key]: NFS_CLIENT.label.value,
    });
    expect(byName(resources, 'ballast-legacy-ceph-worker-9').inputs.metadata.labels).toEqual({
      [NFS_CLIENT.label.key]: NFS_CLIENT.label.value,
      [RBD_CLIENT.label.key]: RBD_CLIENT.label.value,
    });
    const dependsOnDaemonSet = (patch: string, daemonSet: string) =>
      byName(resources, patch).dependencies.some((urn) => urn.endsWith(`kubernetes:apps/v1:DaemonSet::${daemonSet}`));
    expect(dependsOnDaemonSet('ballast-storage-worker-1', 'ballast-storage')).toBe(true);
    expect(dependsOnDaemonSet('ballast-storage-worker-2', 'ballast-storage')).toBe(true);
    expect(dependsOnDaemonSet('ballast-legacy-ceph-worker-9', 'ballast-legacy-ceph')).toBe(true);
    expect(dependsOnDaemonSet('ballast-legacy-ceph-worker-9', 'ballast-storage')).toBe(false);
  });

  test('creates no RBAC at all, and the namespace allows privileged pods', async () => {
    const resources = await deploy(config);
    expect(resources.filter((r) => /rbac|ServiceAccount/.test(r.type))).toEqual([]);
    expect(byName(resources, 'ballast-namespace').inputs.metadata.labels['pod-security.kubernetes.io/enforce']).toBe(
      'privileged',
    );
  });

  test("extension steps (the eviction policy's plug-in point) run after the prerequisites, verify in readiness, add labels", async () => {
    const provider: NodePrepStepProvider<{ threshold: string }> = {
      configKey: 'example',
      parse: (raw, where) => {
        const threshold = (raw as { threshold?: unknown })?.threshold;
        if (typeof threshold !== 'string') throw new Error(`${where}.threshold: required`);
        return { threshold };
      },
      steps: (parsed) => [
        {
          name: 'example',
          script: 'echo ok\n',
          args: ['apply'],
          verifyArgs: ['verify'],
          env: { THRESHOLD: parsed.threshold },
          labels: { 'node.ballast.dev/example': 'applied' },
        },
      ],
    };
    const withStep = {
      nodeGroups: [
        {
          name: 'storage',
          nodes: ['worker-1'],
          prerequisites: ['nfs-client'],
          extensions: { example: { threshold: '5%' } },
        },
      ],
    };
    const resources = await deploy(withStep, [provider]);
    const pod = byName(resources, 'ballast-storage').inputs.spec.template.spec;
    expect(pod.initContainers.map((c: { name: string }) => c.name)).toEqual([
      'prerequisites',
      'step-example',
      'verify',
    ]);
    expect(pod.initContainers[1].env).toEqual([{ name: 'THRESHOLD', value: '5%' }]);
    expect(pod.initContainers[2].command[2]).toContain(
      "&& nsenter --target 1 --mount --uts --ipc --net --pid -- sh -s -- 'verify' < /ballast/step-storage-example.sh",
    );
    expect(byName(resources, 'ballast-scripts').inputs.data['step-storage-example.sh']).toBe('echo ok\n');
    expect(byName(resources, 'ballast-storage-worker-1').inputs.metadata.labels).toEqual({
      [NFS_CLIENT.label.key]: 'installed',
      'node.ballast.dev/example': 'applied',
    });
    expect(() =>
      resolveNodeConfig({ nodeGroups: [{ ...withStep.nodeGroups[0]!, extensions: { example: {} } }] }, [
        provider as NodePrepStepProvider<unknown>,
      ]),
    ).toThrow(/extensions\.example\.threshold: required/);
  });
});

describe('stack config validation', () => {
  test('reports every problem at once, each with its field', () => {
    let message = '';
    try {
      resolveNodeConfig({
        namespace: 'Bad_NS',
        nodeGroups: [
          { name: 'storage', nodes: ['worker-1'], prerequisites: ['nfs-utils'] },
          { name: 'storage', nodes: ['worker-1'], prerequisites: [], extensions: { kubeletEviction: {} } },
        ],
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('namespace "Bad_NS"');
    expect(message).toContain('nodeGroups[0].prerequisites: unknown "nfs-utils"; known: nfs-client, rbd-client');
    expect(message).toContain('nodeGroups[1].name "storage": used by another group');
    expect(message).toContain('nodeGroups[1].nodes: node "worker-1" is already in group "storage"');
    expect(message).toContain('nodeGroups[1].prerequisites: list at least one');
    expect(message).toContain('nodeGroups[1].extensions.kubeletEviction: unknown extension');
    expect(() => resolveNodeConfig({ nodeGroups: [] })).toThrow(/set at least one group/);
  });

  test('defaults: namespace ballast-node-prep, a Debian image with nsenter, with a warning that it is not pinned', () => {
    const resolved = resolveNodeConfig(config);
    expect(resolved.namespace).toBe('ballast-node-prep');
    expect(resolved.image).toBe('docker.io/library/debian:bookworm-slim');
    expect(resolved.groups[1]!.prerequisites).toEqual([NFS_CLIENT, RBD_CLIENT]);
    expect(resolved.warnings).toEqual([expect.stringContaining('is not pinned by digest')]);
    const pinned = `docker.io/library/debian:bookworm-slim@sha256:${'a'.repeat(64)}`;
    expect(resolveNodeConfig({ ...config, image: pinned }).warnings).toEqual([]);
  });

  test.each(['kube-system', 'kube-public', 'kube-node-lease', 'default'])(
    'refuses the reserved namespace %s, which it would label enforce=privileged',
    (namespace) => {
      expect(() => resolveNodeConfig({ ...config, namespace })).toThrow(`namespace "${namespace}": reserved`);
    },
  );

  test('the example stack config pins its image by digest and uses a namespace of its own', () => {
    const example = jsYaml.load(
      fs.readFileSync(path.join(__dirname, '..', '..', 'stacks', 'node-config', 'Pulumi.example.yaml'), 'utf8'),
    ) as {
      config: Record<string, unknown>;
    };
    const resolved = resolveNodeConfig(
      {
        namespace: example.config['ballast-node-config:namespace'] as string,
        image: example.config['ballast-node-config:image'] as string,
        nodeGroups: example.config['ballast-node-config:nodeGroups'] as NodeConfigStackConfig['nodeGroups'],
      },
      NODE_PREP_STEP_PROVIDERS,
    );
    expect(resolved.image).toMatch(/@sha256:[a-f0-9]{64}$/);
    expect(resolved.warnings).toEqual([]);
    expect(resolved.namespace).toBe('ballast-node-prep');
  });
});

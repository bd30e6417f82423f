import { NodeConfigStackConfig, resolveNodeConfig } from '../../stacks/node-config/config';
import { NODE_PREP_STEP_PROVIDERS } from '../../stacks/node-config/extensions';
import {
  KUBELET_EVICTION_LABEL,
  kubeletEvictionContentHash,
  kubeletEvictionStepProvider,
} from '../../stacks/node-config/kubelet-eviction-step';
import { NFS_CLIENT } from '../../validators/node-prerequisites';
import { RegisteredResource as Registered, deployNodePrep, setRecordingPulumiMocks } from '../support/pulumi-mocks';

const DAEMON_SET = 'kubernetes:apps/v1:DaemonSet';
const NODE_PATCH = 'kubernetes:core/v1:NodePatch';
const NSENTER = 'nsenter --target 1 --mount --uts --ipc --net --pid --';

/** The kubelet eviction policy carried by the node-config stack, under pulumi.runtime.setMocks. */
beforeAll(setRecordingPulumiMocks);

const eviction = { kubernetesVersion: '1.31', hard: { 'nodefs.available': '5%' }, healthTimeoutSeconds: 180 };
const config: NodeConfigStackConfig = {
  nodeGroups: [
    { name: 'storage', nodes: ['worker-1'], prerequisites: ['nfs-client'] },
    {
      name: 'small-disk',
      nodes: ['worker-2', 'worker-3', 'worker-4'],
      prerequisites: [],
      extensions: { kubeletEviction: eviction },
    },
    {
      name: 'nfs-small-disk',
      nodes: ['worker-5', 'worker-6'],
      prerequisites: ['nfs-client'],
      extensions: { kubeletEviction: eviction },
    },
  ],
};

function deploy(stackConfig: NodeConfigStackConfig) {
  return deployNodePrep(stackConfig, NODE_PREP_STEP_PROVIDERS);
}
const find = (resources: Registered[], type: string, name: string) => {
  const found = resources.find((r) => r.type === type && r.name === name);
  if (!found) throw new Error(`no ${type} ${name}: ${resources.map((r) => `${r.type} ${r.name}`).join(', ')}`);
  return found;
};
const dependsOn = (resource: Registered, type: string, name: string) =>
  resource.dependencies.some((urn) => urn.endsWith(`${type}::${name}`));
const expectedHash = () => kubeletEvictionContentHash(kubeletEvictionStepProvider.parse(eviction, 'test').files);

describe('kubeletEviction in the node-config stack', () => {
  test('is a registered extension: the stack config accepts it per node group', () => {
    expect(NODE_PREP_STEP_PROVIDERS.map((provider) => provider.configKey)).toContain('kubeletEviction');
    const group = resolveNodeConfig(config, NODE_PREP_STEP_PROVIDERS).groups[1]!;
    expect(group.steps.map((step) => step.name)).toEqual(['kubelet-eviction']);
    expect(group.steps[0]!.disruptsNode).toBe(true);
  });

  test("a group with a kubelet restart gets one DaemonSet per node, each created after the previous node's is ready", async () => {
    const { resources, nodePrep } = await deploy(config);
    const daemonSets = resources.filter((r) => r.type === DAEMON_SET);
    expect(daemonSets.map((r) => r.inputs.metadata.name).sort()).toEqual([
      'node-prep-nfs-small-disk-worker-5',
      'node-prep-nfs-small-disk-worker-6',
      'node-prep-small-disk-worker-2',
      'node-prep-small-disk-worker-3',
      'node-prep-small-disk-worker-4',
      'node-prep-storage',
    ]);
    expect(Object.keys(nodePrep.daemonSets).sort()).toEqual(daemonSets.map((r) => r.inputs.metadata.name).sort());
    const found = ['worker-2', 'worker-3', 'worker-4'].map((node) =>
      find(resources, DAEMON_SET, `ballast-small-disk-prep-${node}`),
    );
    for (const resource of found) expect(resource).toBeDefined();
    const first = found[0]!;
    const second = found[1]!;
    const third = found[2]!;
    expect(daemonSets.some((r) => dependsOn(first, DAEMON_SET, r.name))).toBe(false);
    expect(dependsOn(second, DAEMON_SET, 'ballast-small-disk-prep-worker-2')).toBe(true);
    expect(dependsOn(third, DAEMON_SET, 'ballast-small-disk-prep-worker-3')).toBe(true);
    expect(dependsOn(third, DAEMON_SET, 'ballast-small-disk-prep-worker-2')).toBe(false);
    // Each pod is restricted to its one node, and the selectors of the group's DaemonSets do not overlap.
    for (const [daemonSet, node] of [
      [first, 'worker-2'],
      [third, 'worker-4'],
    ] as const) {
      expect(
        daemonSet.inputs.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution
          .nodeSelectorTerms,
      ).toEqual([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }]);
      expect(daemonSet.inputs.spec.selector.matchLabels).toEqual({
        'app.kubernetes.io/name': 'ballast-node-prep',
        'node.ballast.dev/node-group': 'small-disk',
        'node.ballast.dev/node-prep-node': node,
      });
      expect(daemonSet.inputs.spec.template.metadata.labels).toEqual(daemonSet.inputs.spec.selector.matchLabels);
    }
    // Groups are independent: the chain does not cross them, and a group without a restart keeps one DaemonSet.
    expect(
      daemonSets.some((r) =>
        dependsOn(find(resources, DAEMON_SET, 'ballast-nfs-small-disk-prep-worker-5'), DAEMON_SET, r.name),
      ),
    ).toBe(false);
    expect(
      dependsOn(
        find(resources, DAEMON_SET, 'ballast-nfs-small-disk-prep-worker-6'),
        DAEMON_SET,
        'ballast-nfs-small-disk-prep-worker-5',
      ),
    ).toBe(true);
    expect(
      find(resources, DAEMON_SET, 'ballast-storage').inputs.spec.template.spec.affinity.nodeAffinity
        .requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values,
    ).toEqual(['worker-1']);
  });

  test('labels each node with the content hash only after the DaemonSet of that very node is ready', async () => {
    const { resources } = await deploy(config);
    const patch = find(resources, NODE_PATCH, 'ballast-small-disk-worker-3');
    expect(patch.inputs.metadata).toMatchObject({
      name: 'worker-3',
      labels: { [KUBELET_EVICTION_LABEL]: expectedHash() },
    });
    expect(expectedHash()).toMatch(/^[0-9a-f]{12}$/);
    expect(dependsOn(patch, DAEMON_SET, 'ballast-small-disk-prep-worker-3')).toBe(true);
    expect(dependsOn(patch, DAEMON_SET, 'ballast-small-disk-prep-worker-4')).toBe(false);
    expect(find(resources, NODE_PATCH, 'ballast-nfs-small-disk-worker-6').inputs.metadata.labels).toEqual({
      [NFS_CLIENT.label.key]: NFS_CLIENT.label.value,
      [KUBELET_EVICTION_LABEL]: expectedHash(),
    });
    expect(find(resources, NODE_PATCH, 'ballast-storage-worker-1').inputs.metadata.labels).not.toHaveProperty(
      KUBELET_EVICTION_LABEL,
    );
  });

  test('the step container enters the host (privileged, hostPID, nsenter incl. the host network) and runs the step script', async () => {
    const { resources } = await deploy(config);
    const pod = find(resources, DAEMON_SET, 'ballast-small-disk-prep-worker-2').inputs.spec.template.spec;
    expect(pod.hostPID).toBe(true);
    // The whole step runs in the host's namespaces, 127.0.0.1:10248 included: the pod needs no hostNetwork.
    expect(pod.hostNetwork).toBeUndefined();
    expect(pod.automountServiceAccountToken).toBe(false);
    // No prerequisites in this group: the eviction step, then the verification of the host.
    expect(pod.initContainers.map((c: { name: string }) => c.name)).toEqual(['step-kubelet-eviction', 'verify']);
    const [step] = pod.initContainers;
    expect(step.securityContext).toEqual({ privileged: true, runAsUser: 0 });
    expect(step.command).toEqual([
      '/bin/sh',
      '-c',
      `exec ${NSENTER} sh -s -- 'apply' < /ballast/step-small-disk-kubelet-eviction.sh`,
    ]);
    expect(step.env).toEqual([
      { name: 'HEALTH_TIMEOUT', value: '180' },
      { name: 'HEALTH_INTERVAL', value: '2' },
      { name: 'HEALTHY_CHECKS', value: '3' },
    ]);
    expect(step.volumeMounts).toEqual([{ name: 'scripts', mountPath: '/ballast', readOnly: true }]);
    const nfsPod = find(resources, DAEMON_SET, 'ballast-nfs-small-disk-prep-worker-5').inputs.spec.template.spec;
    expect(nfsPod.initContainers.map((c: { name: string }) => c.name)).toEqual([
      'prerequisites',
      'step-kubelet-eviction',
      'verify',
    ]);
  });

  test('the ConfigMap carries the rendered files and the apply script inside the step script', async () => {
    const { resources } = await deploy(config);
    const script: string = find(resources, 'kubernetes:core/v1:ConfigMap', 'ballast-scripts').inputs.data[
      'step-small-disk-kubelet-eviction.sh'
    ];
    const file = kubeletEvictionStepProvider.parse(eviction, 'test').files[0]!;
    expect(file.path).toBe('/etc/kubernetes/kubelet.conf.d/50-ballast-eviction.conf');
    expect(file.content).toContain('nodefs.available: "5%"');
    expect(script).toContain(`'${file.path}') printf '%s' '${file.content}'`);
    expect(script).toContain('STATE_DIR="$ROOT/var/lib/ballast/kubelet-eviction/small-disk"');
    expect(script).toContain("CONFIG_DIR='/etc/kubernetes/kubelet.conf.d'");
    const fs = await import('fs');
    expect(script).toContain(fs.readFileSync(`${__dirname}/../../templates/apply-kubelet-dropins.sh`, 'utf8'));
  });

  test('is Ready only once the files equal the rendered ones and the kubelet is healthy (the last init container verifies on the host)', async () => {
    const { resources } = await deploy(config);
    const eviction = find(
      resources,
      DAEMON_SET,
      'ballast-small-disk-prep-worker-2',
    ).inputs.spec.template.spec.initContainers.at(-1);
    expect(eviction.command).toEqual([
      '/bin/sh',
      '-c',
      `${NSENTER} sh -s -- 'verify' < /ballast/step-small-disk-kubelet-eviction.sh`,
    ]);
    const both = find(
      resources,
      DAEMON_SET,
      'ballast-nfs-small-disk-prep-worker-5',
    ).inputs.spec.template.spec.initContainers.at(-1);
    expect(both.command[2]).toBe(
      `${NSENTER} sh -s -- 'verify' < /ballast/node-prep.sh && ${NSENTER} sh -s -- 'verify' < /ballast/step-nfs-small-disk-kubelet-eviction.sh`,
    );
    expect(both.env.map((e: { name: string }) => e.name)).toEqual([
      'BALLAST_PREREQUISITES',
      'HEALTH_TIMEOUT',
      'HEALTH_INTERVAL',
      'HEALTHY_CHECKS',
    ]);
  });

  test('a policy change changes the pod template (the rollout is triggered) and the label', async () => {
    const before = find((await deploy(config)).resources, DAEMON_SET, 'ballast-small-disk-prep-worker-2');
    const changed = {
      nodeGroups: config.nodeGroups.map((group) =>
        group.extensions
          ? { ...group, extensions: { kubeletEviction: { ...eviction, hard: { 'nodefs.available': '7%' } } } }
          : group,
      ),
    };
    const resources = (await deploy(changed)).resources;
    const after = find(resources, DAEMON_SET, 'ballast-small-disk-prep-worker-2');
    expect(after.inputs.spec.template.metadata.annotations['node.ballast.dev/node-prep-hash']).not.toBe(
      before.inputs.spec.template.metadata.annotations['node.ballast.dev/node-prep-hash'],
    );
    expect(
      find(resources, NODE_PATCH, 'ballast-small-disk-worker-2').inputs.metadata.labels[KUBELET_EVICTION_LABEL],
    ).not.toBe(expectedHash());
  });
});

describe('kubeletEviction config', () => {
  const where = 'nodeGroups[1].extensions.kubeletEviction';
  const resolve = (kubeletEviction: unknown) => () =>
    resolveNodeConfig(
      {
        nodeGroups: [
          { name: 'ok', nodes: ['worker-1'], prerequisites: ['nfs-client'] },
          { name: 'small-disk', nodes: ['worker-2'], prerequisites: [], extensions: { kubeletEviction } },
        ],
      },
      NODE_PREP_STEP_PROVIDERS,
    );

  test.each([
    ['missing kubernetesVersion', { hard: { 'nodefs.available': '5%' } }, `${where}.kubernetesVersion: required`],
    ['a misspelt field', { kubernetesVersion: '1.30', evictionHard: {} }, `${where}.evictionHard: unknown field`],
    [
      'a map written as a string',
      { kubernetesVersion: '1.30', hard: 'nodefs.available<5%' },
      `${where}.hard: expected a map`,
    ],
    ['a bad version', { kubernetesVersion: '1.x' }, `${where}.kubernetesVersion "1.x"`],
    [
      'an unknown signal',
      { kubernetesVersion: '1.30', hard: { 'disk.available': '5%' } },
      `${where}.hard.disk.available "disk.available": the kubelet refuses to start on an unknown eviction signal`,
    ],
    [
      'a bare number',
      { kubernetesVersion: '1.30', hard: { 'memory.available': '500' } },
      `${where}.hard.memory.available "500": a bare number is ambiguous`,
    ],
    [
      'a percentage over 100%',
      { kubernetesVersion: '1.30', hard: { 'nodefs.available': '105%' } },
      `${where}.hard.nodefs.available "105%"`,
    ],
    [
      'a disk threshold under 5%',
      { kubernetesVersion: '1.30', hard: { 'nodefs.available': '3%' } },
      `${where}.hard.nodefs.available "3%": below 5%`,
    ],
    [
      'a soft threshold without grace period',
      { kubernetesVersion: '1.30', soft: { 'memory.available': { threshold: '500Mi' } } },
      `${where}.soft.memory.available.gracePeriod (not set)`,
    ],
    [
      'a soft threshold not above the hard one',
      { kubernetesVersion: '1.30', soft: { 'nodefs.available': { threshold: '8%', gracePeriod: '1m' } } },
      `${where}.soft.nodefs.available.threshold "8%": not above the hard threshold`,
    ],
    [
      'a negative minimum reclaim',
      { kubernetesVersion: '1.30', minimumReclaim: { 'memory.available': '-1Mi' } },
      `${where}.minimumReclaim.memory.available "-1Mi"`,
    ],
    [
      'a max pod grace period beyond int32, which would render as 1e+21',
      { kubernetesVersion: '1.30', maxPodGracePeriodSeconds: 1e21 },
      `${where}.maxPodGracePeriodSeconds 1e+21`,
    ],
    [
      'a negative max pod grace period',
      { kubernetesVersion: '1.30', maxPodGracePeriodSeconds: -1 },
      `${where}.maxPodGracePeriodSeconds -1`,
    ],
    [
      'a soft threshold with max pod grace period 0',
      {
        kubernetesVersion: '1.30',
        soft: { 'memory.available': { threshold: '500Mi', gracePeriod: '1m' } },
        maxPodGracePeriodSeconds: 0,
      },
      `${where}.maxPodGracePeriodSeconds 0: with soft thresholds`,
    ],
    [
      'an unknown delivery',
      { kubernetesVersion: '1.30', delivery: 'kubelet-flags' },
      `${where}.delivery "kubelet-flags": use one of config-dir, systemd-drop-in`,
    ],
    [
      'config-dir before 1.30',
      { kubernetesVersion: '1.29', delivery: 'config-dir' },
      `${where}.delivery "config-dir": --config-dir is alpha before 1.30`,
    ],
    [
      'merge-by-kubelet before 1.33',
      { kubernetesVersion: '1.31', defaults: 'merge-by-kubelet' },
      `${where}.defaults "merge-by-kubelet": mergeDefaultEvictionSettings exists from 1.33`,
    ],
    [
      'a relative configDir',
      { kubernetesVersion: '1.30', configDir: 'kubelet.conf.d' },
      `${where}.configDir "kubelet.conf.d": an absolute path`,
    ],
    [
      'a health timeout too short to restart a kubelet',
      { kubernetesVersion: '1.30', healthTimeoutSeconds: 5 },
      `${where}.healthTimeoutSeconds 5`,
    ],
  ])('refuses %s, naming the field', (_case, kubeletEviction, message) => {
    expect(resolve(kubeletEviction)).toThrow(message);
  });

  test('reports every problem of the section at once, and the section must be a map', () => {
    let message = '';
    try {
      resolve({ evictionHard: {}, delivery: 'x' })();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(`${where}.kubernetesVersion: required`);
    expect(message).toContain(`${where}.evictionHard: unknown field`);
    expect(message).toContain(`${where}.delivery "x"`);
    // The group's only extension is configured, if wrongly: no misleading "add a prerequisite".
    expect(message).not.toContain('prerequisites');
    expect(resolve('1.30')).toThrow(`${where}: expected a map`);
  });

  test('accepts a full policy and picks the delivery from the version', () => {
    const parse = (raw: unknown) => kubeletEvictionStepProvider.parse(raw, where);
    const full = parse({
      kubernetesVersion: '1.33',
      hard: { 'nodefs.available': '5%', 'memory.available': '200Mi' },
      soft: { 'memory.available': { threshold: '500Mi', gracePeriod: '1m30s' } },
      minimumReclaim: { 'nodefs.available': '1Gi' },
      maxPodGracePeriodSeconds: 90,
      defaults: 'merge-by-kubelet',
      configDir: '/etc/kubelet.d/',
    });
    expect(full.files.map((file) => file.path)).toEqual(['/etc/kubelet.d/50-ballast-eviction.conf']);
    expect(full.configDir).toBe('/etc/kubelet.d');
    expect(full.healthTimeoutSeconds).toBe(120);
    expect(full.files[0]!.content).toContain('mergeDefaultEvictionSettings: true');
    const old = parse({ kubernetesVersion: '1.29' });
    expect(old.files.map((file) => file.path)).toEqual([
      '/etc/systemd/system/kubelet.service.d/20-ballast-eviction.conf',
    ]);
    expect(old.configDir).toBeUndefined();
  });

  test('Pulumi.example.yaml is a valid stack config with a kubeletEviction group', async () => {
    const fs = await import('fs');
    const yaml = await import('js-yaml');
    const example = yaml.load(fs.readFileSync(`${__dirname}/../../stacks/node-config/Pulumi.example.yaml`, 'utf8')) as {
      config: Record<string, unknown>;
    };
    const resolved = resolveNodeConfig(
      { nodeGroups: example.config['ballast-node-config:nodeGroups'] as NodeConfigStackConfig['nodeGroups'] },
      NODE_PREP_STEP_PROVIDERS,
    );
    expect(resolved.groups.map((group) => group.steps.map((step) => step.name))).toEqual([[], ['kubelet-eviction']]);
  });

  test('a group with only the eviction policy needs no prerequisite; one with neither is refused', () => {
    expect(resolve({ kubernetesVersion: '1.30' })().groups[1]!.prerequisites).toEqual([]);
    expect(() =>
      resolveNodeConfig(
        { nodeGroups: [{ name: 'empty', nodes: ['worker-1'], prerequisites: [] }] },
        NODE_PREP_STEP_PROVIDERS,
      ),
    ).toThrow('nodeGroups[0].prerequisites: list at least one');
  });
});

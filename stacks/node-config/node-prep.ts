import * as crypto from 'crypto';
import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { NODE_PREP_PREREQUISITES_ENV, nodePrepScript, renderNodePrepPrerequisites } from '../../templates/node-prep';
import { NodeGroup, ResolvedNodeConfig } from './config';
import { NodePrepStep } from './node-prep-step';

const SCRIPTS_DIR = '/ballast';
const NODE_PREP_KEY = 'node-prep.sh';
const APP_LABEL = 'app.kubernetes.io/name';
const APP = 'ballast-node-prep';
const GROUP_LABEL = 'node.ballast.dev/node-group';
/** Tells apart the per-node DaemonSets of a group whose steps disrupt the node. */
const TARGET_NODE_LABEL = 'node.ballast.dev/node-prep-node';
/** Enter every namespace of the host's init process: the script then runs as if on the host. */
const NSENTER = 'nsenter --target 1 --mount --uts --ipc --net --pid --';

/**
 * Prepares nodes and labels them, in this order:
 *
 * 1. per node group, a DaemonSet restricted to the group's nodes (by node name) whose init
 *    containers enter the host (privileged, hostPID, nsenter) and run node-prep.sh, then each
 *    extension step, then verify everything on the host; all privileged work ends there. The pod's
 *    one long-running container is unprivileged (non-root, no capabilities, read-only root file
 *    system, no mounts): it only keeps the pod Ready, which it is only once every init container
 *    succeeded. Updates roll one node at a time (maxUnavailable 1). When a step disrupts the node (a
 *    kubelet restart), the group gets one DaemonSet per node instead, each depending on the
 *    previous node's: creation, too, then goes one node at a time, and stops at the first failure;
 * 2. per node, a NodePatch with the labels, which depends on the DaemonSet that prepares the node:
 *    Pulumi applies it only after that DaemonSet is ready. Labels are applied by whoever runs
 *    `pulumi up`, so no workload in the cluster needs RBAC on nodes.
 *
 * These DaemonSets are the only privileged objects ballast creates. Their pods mount no service
 * account token and have no RBAC.
 */
export class NodePrep extends pulumi.ComponentResource {
  public readonly namespace: k8s.core.v1.Namespace;
  public readonly scripts: k8s.core.v1.ConfigMap;
  /** Every node-prep DaemonSet, by its name (`node-prep-<group>`, or `node-prep-<group>-<node>` per node). */
  public readonly daemonSets: Readonly<Record<string, k8s.apps.v1.DaemonSet>>;
  /** The label patch of each node, by node name. */
  public readonly nodePatches: Readonly<Record<string, k8s.core.v1.NodePatch>>;

  constructor(name: string, config: ResolvedNodeConfig, opts?: pulumi.ComponentResourceOptions) {
    super('ballast:node-config:NodePrep', name, {}, opts);
    const parent = { parent: this };
    this.namespace = new k8s.core.v1.Namespace(
      `${name}-namespace`,
      {
        metadata: {
          name: config.namespace,
          // Pod Security admission refuses privileged pods elsewhere; this namespace holds nothing else.
          labels: { 'pod-security.kubernetes.io/enforce': 'privileged', [APP_LABEL]: APP },
        },
      },
      parent,
    );

    const scriptData: Record<string, string> = { [NODE_PREP_KEY]: nodePrepScript() };
    for (const group of config.groups) {
      for (const step of group.steps) scriptData[stepScriptKey(group, step)] = step.script;
    }
    this.scripts = new k8s.core.v1.ConfigMap(
      `${name}-scripts`,
      {
        metadata: { name: 'node-prep-scripts', namespace: this.namespace.metadata.name, labels: { [APP_LABEL]: APP } },
        data: scriptData,
      },
      parent,
    );

    const daemonSets: Record<string, k8s.apps.v1.DaemonSet> = {};
    const nodePatches: Record<string, k8s.core.v1.NodePatch> = {};
    for (const group of config.groups) {
      const contentHash = hashOf(group, scriptData);
      const perNode = group.steps.some((step) => step.disruptsNode);
      let previous: k8s.apps.v1.DaemonSet | undefined;
      for (const target of perNode ? group.nodes.map((node) => [node]) : [group.nodes]) {
        const node = perNode ? target[0] : undefined;
        const daemonSetName = node === undefined ? `node-prep-${group.name}` : perNodeDaemonSetName(group.name, node);
        const daemonSet: k8s.apps.v1.DaemonSet = new k8s.apps.v1.DaemonSet(
          node === undefined ? `${name}-${group.name}` : `${name}-${group.name}-prep-${node}`,
          {
            metadata: {
              name: daemonSetName,
              namespace: this.namespace.metadata.name,
              labels: { [APP_LABEL]: APP, [GROUP_LABEL]: group.name },
            },
            spec: nodePrepDaemonSetSpec(group, config.image, this.scripts.metadata.name, contentHash, node),
          },
          { ...parent, customTimeouts: { create: '30m', update: '30m' }, dependsOn: previous ? [previous] : [] },
        );
        daemonSets[daemonSetName] = daemonSet;
        previous = daemonSet;
        for (const prepared of target) {
          nodePatches[prepared] = new k8s.core.v1.NodePatch(
            `${name}-${group.name}-${prepared}`,
            {
              metadata: {
                name: prepared,
                labels: nodeLabels(group),
                // ballast owns its label keys: take them over from an earlier `kubectl label`.
                annotations: { 'pulumi.com/patchForce': 'true' },
              },
            },
            { ...parent, dependsOn: [daemonSet] },
          );
        }
      }
    }
    this.daemonSets = daemonSets;
    this.nodePatches = nodePatches;
    this.registerOutputs({});
  }
}

/** The labels a group's nodes get once prepared: each prerequisite's, then each step's. */
export function nodeLabels(group: NodeGroup): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const prerequisite of group.prerequisites) labels[prerequisite.label.key] = prerequisite.label.value;
  for (const step of group.steps) Object.assign(labels, step.labels ?? {});
  return labels;
}

/** `node-prep-<group>-<node>`; a node name that would not fit gets a hash instead (DNS subdomain, 253). */
export function perNodeDaemonSetName(groupName: string, node: string): string {
  const name = `node-prep-${groupName}-${node}`;
  return name.length <= 253 ? name : `node-prep-${groupName}-${shortHash(node)}`;
}

/** A label value (at most 63 characters) that tells the node apart. */
function targetNodeLabelValue(node: string): string {
  return node.length <= 63 ? node : shortHash(node);
}

function shortHash(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex').slice(0, 16);
}

function stepScriptKey(group: NodeGroup, step: NodePrepStep): string {
  return `step-${group.name}-${step.name}.sh`;
}

/** Changes of script or input must roll the pods: the hash goes into the pod template. */
function hashOf(group: NodeGroup, scripts: Record<string, string>): string {
  const prerequisites = group.prerequisites.length > 0 ? renderNodePrepPrerequisites(group.prerequisites) : '';
  const relevant = [scripts[NODE_PREP_KEY], prerequisites, JSON.stringify(group.steps)];
  return crypto.createHash('sha256').update(relevant.join('\0')).digest('hex').slice(0, 16);
}

/** `sh -s -- args` on the host, reading the script from the mounted ConfigMap. */
function onHost(scriptKey: string, args: readonly string[]): string {
  const quoted = args.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  return `${NSENTER} sh -s --${quoted ? ` ${quoted}` : ''} < ${SCRIPTS_DIR}/${scriptKey}`;
}

/**
 * The DaemonSet spec of a group, or, with `onlyNode`, of one node of the group (a disruptive step).
 */
export function nodePrepDaemonSetSpec(
  group: NodeGroup,
  image: string,
  scriptsConfigMap: pulumi.Input<string>,
  contentHash: string,
  onlyNode?: string,
): k8s.types.input.apps.v1.DaemonSetSpec {
  const labels: Record<string, string> = { [APP_LABEL]: APP, [GROUP_LABEL]: group.name };
  if (onlyNode !== undefined) labels[TARGET_NODE_LABEL] = targetNodeLabelValue(onlyNode);
  const nodes = onlyNode === undefined ? group.nodes : [onlyNode];
  const hasPrerequisites = group.prerequisites.length > 0;
  const prerequisitesEnv = hasPrerequisites
    ? [{ name: NODE_PREP_PREREQUISITES_ENV, value: renderNodePrepPrerequisites(group.prerequisites) }]
    : [];
  const privileged: k8s.types.input.core.v1.SecurityContext = { privileged: true, runAsUser: 0 };
  // The long-running container holds no privilege: it only keeps the prepared pod alive and Ready.
  const unprivileged: k8s.types.input.core.v1.SecurityContext = {
    runAsNonRoot: true,
    runAsUser: 65534,
    runAsGroup: 65534,
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
    seccompProfile: { type: 'RuntimeDefault' },
  };
  const scriptsMount = { name: 'scripts', mountPath: SCRIPTS_DIR, readOnly: true };
  const envOf = (step: NodePrepStep) => Object.entries(step.env ?? {}).map(([name, value]) => ({ name, value }));
  const verifyCommands = [
    ...(hasPrerequisites ? [onHost(NODE_PREP_KEY, ['verify'])] : []),
    ...group.steps
      .filter((step) => step.verifyArgs)
      .map((step) => onHost(stepScriptKey(group, step), step.verifyArgs ?? [])),
  ];
  return {
    selector: { matchLabels: labels },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    minReadySeconds: 10,
    template: {
      metadata: { labels, annotations: { 'node.ballast.dev/node-prep-hash': contentHash } },
      spec: {
        hostPID: true,
        automountServiceAccountToken: false,
        priorityClassName: 'system-node-critical',
        terminationGracePeriodSeconds: 5,
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [...nodes] }] }],
            },
          },
        },
        tolerations: [...group.tolerations],
        volumes: [{ name: 'scripts', configMap: { name: scriptsConfigMap, defaultMode: 0o444 } }],
        initContainers: [
          ...(hasPrerequisites
            ? [
                {
                  name: 'prerequisites',
                  image,
                  command: ['/bin/sh', '-c', `exec ${onHost(NODE_PREP_KEY, ['install'])}`],
                  env: prerequisitesEnv,
                  securityContext: privileged,
                  volumeMounts: [scriptsMount],
                  // Package managers run in this container's cgroup.
                  resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { memory: '1Gi' } },
                },
              ]
            : []),
          ...group.steps.map((step) => ({
            name: `step-${step.name}`,
            image,
            command: ['/bin/sh', '-c', `exec ${onHost(stepScriptKey(group, step), step.args ?? [])}`],
            env: envOf(step),
            securityContext: privileged,
            volumeMounts: [scriptsMount],
            resources: { requests: { cpu: '10m', memory: '32Mi' }, limits: { memory: '256Mi' } },
          })),
          // The last privileged act: verify the whole preparation on the host. The pod is never
          // Ready, and the node never labelled, unless this passes.
          ...(verifyCommands.length > 0
            ? [
                {
                  name: 'verify',
                  image,
                  command: ['/bin/sh', '-c', verifyCommands.join(' && ')],
                  env: [...prerequisitesEnv, ...group.steps.flatMap(envOf)],
                  securityContext: privileged,
                  volumeMounts: [scriptsMount],
                  resources: { requests: { cpu: '10m', memory: '16Mi' }, limits: { memory: '64Mi' } },
                },
              ]
            : []),
        ],
        containers: [
          {
            name: 'prepared',
            image,
            // Stays up so the DaemonSet counts the node as prepared; nothing of the host is reachable from here.
            command: ['/bin/sh', '-c', 'trap "exit 0" TERM; while :; do sleep 3600 & wait $!; done'],
            securityContext: unprivileged,
            resources: { requests: { cpu: '1m', memory: '8Mi' }, limits: { memory: '16Mi' } },
          },
        ],
      },
    },
  };
}

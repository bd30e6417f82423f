/**
 * Node prerequisites: what a node must have installed before some pods can run on it, declared
 * once. The same declaration drives the pod side (the constructs add required node affinity on
 * `label.key`, the rules accept it), the node side (the Pulumi node-config stack installs the
 * packages, verifies, then applies `label`) and lint (`prerequisiteLabelKeys` in the rule settings).
 *
 * This file imports nothing: validators, constructs and stacks all depend on it.
 */

/** The OS families node-prep knows how to install packages on (from `/etc/os-release` ID / ID_LIKE). */
export type OsFamily = 'debian' | 'rhel' | 'suse';

export const OS_FAMILIES: readonly OsFamily[] = ['debian', 'rhel', 'suse'];

/** The node label that marks nodes where a prerequisite is installed and verified. */
export interface PrerequisiteLabel {
  readonly key: string;
  readonly value: string;
}

export interface NodePrerequisite {
  /** Kebab-case name, used in labels, stack config and messages. */
  readonly name: string;
  /** What needs it and why, for messages and docs. */
  readonly description: string;
  /** Packages per OS family. Every family must be listed: node-prep refuses an OS it cannot serve. */
  readonly packages: Readonly<Record<OsFamily, readonly string[]>>;
  /**
   * Verification: the prerequisite is satisfied when at least one of these host paths is an
   * executable file (packages put helpers in /sbin on some distributions, /usr/sbin on others).
   */
  readonly verifyExecutables: readonly string[];
  /** Human-readable form of the verification. */
  readonly verifyDescription: string;
  readonly label: PrerequisiteLabel;
}

/**
 * Immutable / image-based operating systems (no package manager at run time). node-prep refuses
 * them with a clear message: the prerequisite must be baked into the image (or a system extension).
 */
export const IMMUTABLE_OS_IDS: readonly string[] = [
  'flatcar',
  'coreos',
  'fedora-coreos',
  'rhcos',
  'talos',
  'bottlerocket',
];

/** The in-tree NFS volume plugin mounts with the host's own `mount.nfs` (incident 5). */
export const NFS_CLIENT: NodePrerequisite = {
  name: 'nfs-client',
  description: 'the NFS mount helper (mount.nfs) the kubelet runs on the host to mount in-tree nfs volumes',
  packages: { debian: ['nfs-common'], rhel: ['nfs-utils'], suse: ['nfs-client'] },
  verifyExecutables: ['/sbin/mount.nfs', '/usr/sbin/mount.nfs'],
  verifyDescription: 'mount.nfs is present and executable in /sbin or /usr/sbin',
  label: { key: 'node.ballast.dev/nfs-client', value: 'installed' },
};

/** The NFS client's package on every OS family: what a node-preparation document installs it as. */
export const NFS_CLIENT_PACKAGES: ReadonlySet<string> = new Set(Object.values(NFS_CLIENT.packages).flat());

/** The in-tree rbd volume plugin (removed in 1.31) maps images with the host's `rbd` command. */
export const RBD_CLIENT: NodePrerequisite = {
  name: 'rbd-client',
  description: 'the Ceph rbd command the kubelet runs on the host to map in-tree rbd volumes',
  packages: { debian: ['ceph-common'], rhel: ['ceph-common'], suse: ['ceph-common'] },
  verifyExecutables: ['/usr/bin/rbd', '/bin/rbd'],
  verifyDescription: 'rbd is present and executable in /usr/bin or /bin',
  label: { key: 'node.ballast.dev/rbd-client', value: 'installed' },
};

/** The names of the declared prerequisites. */
export type NodePrerequisiteName = 'nfs-client' | 'rbd-client';

/** Every declared prerequisite, by name. */
export const NODE_PREREQUISITES: Readonly<Record<NodePrerequisiteName, NodePrerequisite>> = {
  'nfs-client': NFS_CLIENT,
  'rbd-client': RBD_CLIENT,
};

/** The prerequisite with this name, or undefined. */
export function findNodePrerequisite(name: string): NodePrerequisite | undefined {
  return isNodePrerequisiteName(name) ? NODE_PREREQUISITES[name] : undefined;
}

export function isNodePrerequisiteName(name: string): name is NodePrerequisiteName {
  return Object.prototype.hasOwnProperty.call(NODE_PREREQUISITES, name);
}

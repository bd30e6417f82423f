import { fieldPath } from '../../field-path';
import { asArray, asRecord, asString, getRecord } from '../../json';
import { IndexedObject, ObjectIndex } from '../../object-index';

/**
 * Where Cluster API keeps the kubeadm configuration spec whose `files:` it writes onto each node
 * before kubeadm runs, by kind.
 */
const CONFIG_SPEC_PATHS: Readonly<Record<string, readonly string[]>> = {
  KubeadmConfig: ['spec'],
  KubeadmConfigTemplate: ['spec', 'template', 'spec'],
  KubeadmControlPlane: ['spec', 'kubeadmConfigSpec'],
  KubeadmControlPlaneTemplate: ['spec', 'template', 'spec', 'kubeadmConfigSpec'],
};

/** The Cluster API kinds whose `files:` entries are read. */
export const KUBEADM_CONFIG_FILE_KINDS: readonly string[] = Object.keys(CONFIG_SPEC_PATHS);

/** One file a Cluster API bootstrap config writes onto its nodes, with its text. */
export interface NodeFile {
  readonly object: IndexedObject;
  /** Where the node keeps it: `/etc/kubernetes/patches/kubeletconfiguration0+strategic.json`. */
  readonly nodePath: string;
  /** The text written (base64 decoded). */
  readonly content: string;
  /** The field path of the entry's `content`. */
  readonly path: string;
}

/**
 * Every `files:` entry with inline content in the Cluster API bootstrap objects of the set:
 * KubeletConfiguration patches for kubeadm (`/etc/kubernetes/patches/kubeletconfiguration*`),
 * kubelet configuration files and kubelet unit drop-ins are written this way. Content from a
 * Secret (`contentFrom`) and gzip-compressed content are not in the input, so not read.
 */
export function kubeadmConfigFiles(index: ObjectIndex): NodeFile[] {
  const files: NodeFile[] = [];
  for (const [kind, specPath] of Object.entries(CONFIG_SPEC_PATHS)) {
    for (const object of index.ofKind(kind)) {
      asArray(getRecord(object.raw, ...specPath)?.files).forEach((entry, i) => {
        const file = asRecord(entry);
        const nodePath = asString(file?.path);
        const content = decoded(file?.content, asString(file?.encoding));
        if (nodePath === undefined || content === undefined) return;
        files.push({ object, nodePath, content, path: fieldPath(...specPath, 'files', i, 'content') });
      });
    }
  }
  return files;
}

function decoded(content: unknown, encoding: string | undefined): string | undefined {
  if (typeof content !== 'string') return undefined;
  if (encoding === undefined || encoding === '') return content;
  if (encoding === 'base64') return Buffer.from(content, 'base64').toString('utf8');
  return undefined;
}

import { JsonRecord, asArray, asRecord, asString, isRecord } from './json';
import { NFS_CLIENT_PACKAGES, NODE_PREREQUISITES } from './node-prerequisites';

/**
 * The kind ballast gives a node-preparation document that installs a node prerequisite's package
 * (the NFS client, the Ceph client): not a Kubernetes object, but the input's own statement that
 * nodes get the package, so a missing prerequisite is no longer certain.
 */
export const NODE_PACKAGE_INSTALL_KIND = 'NodePackageInstall';

/**
 * What a NodePackageInstall object holds: `tool`, what installs the packages (`Ansible`,
 * `cloud-init` or `a shell script`), and `packages`, the prerequisite packages it installs (nfs-common, nfs-utils, ceph-common, ...).
 */
export type NodePackageInstall = {
  readonly kind: typeof NODE_PACKAGE_INSTALL_KIND;
  readonly tool: string;
  readonly packages: string[];
};

/** Every package a declared node prerequisite needs, on any OS family. */
const PREREQUISITE_PACKAGES: ReadonlySet<string> = new Set(
  Object.values(NODE_PREREQUISITES).flatMap((prerequisite) => Object.values(prerequisite.packages).flat()),
);

/** Ansible's package modules (ansible.builtin and community.general), by their short and full names. */
const PACKAGE_MODULES: ReadonlySet<string> = new Set(
  ['apt', 'yum', 'dnf', 'package', 'zypper', 'apk', 'pacman'].flatMap((name) => [
    name,
    `ansible.builtin.${name}`,
    `community.general.${name}`,
  ]),
);

/** Task lists of a play, and of a block. */
const TASK_LIST_KEYS = ['tasks', 'pre_tasks', 'post_tasks', 'handlers', 'block', 'rescue', 'always'];

/** Where an Ansible role or inventory keeps variables (a role's package list, `common_packages: [...]`). */
const ANSIBLE_VARIABLES_DIRECTORY = /(^|[\\/])(vars|defaults|group_vars|host_vars)[\\/]/;

/** Keys only a cloud-init `#cloud-config` document writes beside `packages`. */
const CLOUD_CONFIG_KEYS = ['runcmd', 'bootcmd', 'package_update', 'package_upgrade', 'write_files', 'users'];

/**
 * A document that installs a node prerequisite's package on the hosts it prepares, as an object of
 * kind NodePackageInstall; undefined for any other document:
 * - Ansible tasks (a playbook's plays, or a role's task list) that install it with a package module,
 *   by name, as a list, or through `loop` / `with_items`;
 * - an Ansible role's or inventory's variables whose list names it (the package list a task installs);
 * - a cloud-init cloud-config whose `packages` names it.
 */
export function nodePackageInstall(document: unknown, file: string): NodePackageInstall | undefined {
  if (Array.isArray(document)) return found('Ansible', ansibleTaskPackages(document));
  if (!isRecord(document) || 'kind' in document || 'apiVersion' in document) return undefined;
  if (Array.isArray(document.packages) && CLOUD_CONFIG_KEYS.some((key) => key in document))
    return found('cloud-init', prerequisitePackages(document.packages));
  if (ANSIBLE_VARIABLES_DIRECTORY.test(file))
    return found(
      'Ansible',
      Object.values(document).flatMap((value) => (Array.isArray(value) ? prerequisitePackages(value) : [])),
    );
  return undefined;
}

/** Whether a file of this name is a node-preparation shell script ballast reads (`install.sh`, a Vagrantfile). */
export function isShellScriptName(name: string): boolean {
  return /\.sh$/i.test(name) || name === 'Vagrantfile';
}

/** A package manager's install command and the words after it (`apt-get install -y nfs-common curl`). */
const SHELL_INSTALL =
  /\b(?:apt-get|apt|yum|dnf|microdnf|zypper|apk|pacman)\b[^\n;&|#]*?\s(?:install|add|in|-S\w*)\s([^\n;&|#]*)/g;

/** `dpkg -i` (or `--install`) and the package files after it. */
const DPKG_INSTALL = /\bdpkg\s+(?:-i|--install)\s([^\n;&|#]*)/g;

/**
 * What only an NFS server's setup does: write its exports (`/etc/exports`, `exportfs`), install the
 * server package, or start the server's service (`systemctl enable nfs-server`, RHEL 7's `nfs`).
 */
const NFS_SERVER_SETUP =
  /\/etc\/exports\b|\bexportfs\b|\bnfs-kernel-server\b|\bsystemctl\s+(?:enable|start|restart)\s+(?:--now\s+)?nfs(?:-server)?(?:\.service)?(?=\s|$)/m;

/**
 * A shell script (a provisioning script, a Vagrantfile's inline provisioner) that installs a node
 * prerequisite's package with a package manager, as an object of kind NodePackageInstall; undefined
 * when it installs none. Homelab and Vagrant clusters prepare their nodes so as often as with Ansible.
 * A script that sets up an NFS server installs nfs-utils for the server it runs on, not for the
 * cluster's nodes (humstarman/workspace-manifest's install-nfs.sh writes /etc/exports): its NFS
 * packages say nothing of the nodes.
 */
export function shellPackageInstall(text: string): NodePackageInstall | undefined {
  // A command continued over lines (`\` at a line's end) is one command.
  const joined = text.replace(/\\\r?\n/g, ' ');
  const packages: string[] = [];
  // `dpkg -i ./debs/nfs-common_1.3.4-2.5_amd64.deb`: the package is the file name up to its first `_`.
  for (const match of joined.matchAll(DPKG_INSTALL))
    packages.push(
      ...prerequisitePackages((match[1] ?? '').split(/\s+/).map((word) => (word.split('/').pop() ?? '').split('_')[0])),
    );
  for (const match of joined.matchAll(SHELL_INSTALL))
    packages.push(
      ...prerequisitePackages((match[1] ?? '').split(/\s+/).map((word) => word.replace(/^['"]+|['"]+$/g, ''))),
    );
  if (!NFS_SERVER_SETUP.test(joined)) return found('a shell script', packages);
  return found(
    'a shell script',
    packages.filter((name) => !NFS_CLIENT_PACKAGES.has(name)),
  );
}

function found(tool: string, packages: string[]): NodePackageInstall | undefined {
  return packages.length === 0
    ? undefined
    : { kind: NODE_PACKAGE_INSTALL_KIND, tool, packages: [...new Set(packages)] };
}

/** The prerequisite packages the tasks (or plays) of a list install, nested blocks included. */
function ansibleTaskPackages(tasks: readonly unknown[], depth = 0): string[] {
  // Plays hold tasks, tasks hold blocks: real files nest a few levels; the bound keeps a crafted file cheap.
  if (depth > 8) return [];
  return tasks.flatMap((task) => {
    const record = asRecord(task);
    if (!record) return [];
    const nested = TASK_LIST_KEYS.flatMap((key) => ansibleTaskPackages(asArray(record[key]), depth + 1));
    const module = Object.keys(record).find((key) => PACKAGE_MODULES.has(key));
    return module === undefined ? nested : [...nested, ...prerequisitePackages(packageNames(record, record[module]))];
  });
}

/**
 * The names a package task installs: its `name` (or `pkg`) as a string, a comma-separated string or
 * a list, or the free-form `name=nfs-common state=present`; a `{{ item }}` name takes the task's
 * `loop` or `with_items` list, and a name that is one variable (`{{ packages }}`) the list the
 * task's own `vars` give it, as Ansible's package modules document.
 */
function packageNames(task: JsonRecord, moduleArguments: unknown): readonly unknown[] {
  const free = asString(moduleArguments);
  const named = free !== undefined ? /(?:^|\s)(?:name|pkg)=(\S+)/.exec(free)?.[1] : undefined;
  const argumentsRecord = asRecord(moduleArguments);
  const names = named ?? argumentsRecord?.name ?? argumentsRecord?.pkg;
  const text = asString(names);
  if (text !== undefined && /\{\{\s*item\s*\}\}/.test(text))
    return [...asArray(task.loop), ...asArray(task.with_items)];
  const variable = text === undefined ? undefined : /^\{\{\s*([A-Za-z_]\w*)\s*\}\}$/.exec(text.trim())?.[1];
  // The names as written, or as the task's own vars give the one variable they are.
  const listed = variable !== undefined ? asRecord(task.vars)?.[variable] : names;
  const listedText = asString(listed);
  return listedText !== undefined ? listedText.split(',') : asArray(listed);
}

function prerequisitePackages(names: readonly unknown[]): string[] {
  return names
    .map((name) => asString(name)?.trim())
    .filter((name): name is string => name !== undefined && PREREQUISITE_PACKAGES.has(name));
}

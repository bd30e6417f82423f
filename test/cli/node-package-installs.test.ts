import * as path from 'path';
import { lint } from '../../cli/lint-command';
import { tempTree } from './run-cli';

const RULE = 'nfs-volume-without-node-prerequisite';

// Neraud/home-server apps/base/tool-nextcloud/deploy/nextcloud/nfs-nextcloud-pv.yaml (held-out-302):
// an in-tree NFS PersistentVolume with no node affinity, in a repository whose Ansible role installs
// nfs-common on every node.
const NFS_VOLUME = `apiVersion: v1
kind: PersistentVolume
metadata:
  name: nfs-nextcloud
spec:
  capacity:
    storage: 5Gi
  accessModes:
    - ReadWriteMany
  mountOptions:
    - nfsvers=4.1
  nfs:
    server: nas.local
    path: /volume1/nextcloud
`;

function nfsFindings(files: Record<string, string>) {
  const tree = tempTree({ 'k8s/nfs-pv.yaml': NFS_VOLUME, ...files });
  try {
    return lint([tree.dir], { cwd: tree.dir })
      .findings.filter((finding) => finding.rule === RULE)
      .map((finding) => ({
        file: path.relative(tree.dir, finding.file ?? ''),
        severity: finding.severity,
        path: finding.path,
        // Sources are named by absolute path: the message is read relative to the tree.
        message: finding.message.split(`${tree.dir}${path.sep}`).join(''),
      }));
  } finally {
    tree.cleanup();
  }
}

describe(`${RULE}: nodes the input prepares itself (Ansible, cloud-init)`, () => {
  test('without node preparation in the input, the volume is an error', () => {
    expect(nfsFindings({})).toEqual([
      expect.objectContaining({ file: 'k8s/nfs-pv.yaml', severity: 'error', path: 'spec.nfs' }),
    ]);
  });

  // Neraud/home-server ansible/install_infra/roles/common/vars/main.yml: the role's package list.
  test('real world: an Ansible role whose package list names nfs-common makes it a warning naming the file', () => {
    const [finding] = nfsFindings({
      'ansible/roles/common/vars/main.yml': 'common_packages:\n  - curl\n  - rsync\n  - nfs-common\n  - git-core\n',
      'ansible/roles/common/tasks/main.yml': '- name: Install packages\n  apt:\n    name: "{{ common_packages }}"\n',
    });
    expect(finding).toMatchObject({ file: 'k8s/nfs-pv.yaml', severity: 'warning', path: 'spec.nfs' });
    expect(finding?.message).toContain(
      'The input installs the NFS client on nodes (nfs-common, with Ansible in ansible/roles/common/vars/main.yml)',
    );
  });

  // strus38/orchestratedRPiCluster rpicluster/ansible/rpi-setup.yaml (held-out set): `hosts: all`,
  // apt with `pkg: "{{ item }}"` over with_items.
  test('real world: a playbook that installs it over with_items, by name, in a block, or free-form, makes it a warning', () => {
    const playbooks = [
      '- hosts: all\n  tasks:\n  - name: Install necessary packages\n    become: true\n    apt:\n      pkg: "{{ item }}"\n      state: present\n    with_items:\n      - nfs-common\n      - tftp\n',
      '- hosts: k8s\n  tasks:\n    - name: Install NFS client utilities\n      ansible.builtin.apt:\n        name: nfs-common\n        state: present\n',
      '- hosts: nodes\n  tasks:\n    - block:\n        - ansible.builtin.dnf:\n            name: [nfs-utils, iscsi-initiator-utils]\n',
      '- name: nfs client\n  yum: name=nfs-utils state=present\n',
      '- name: clients\n  ansible.builtin.package:\n    name: "{{ item }}"\n  loop: [nfs-client]\n',
    ];
    for (const playbook of playbooks)
      expect(nfsFindings({ 'playbooks/nodes.yml': playbook })).toEqual([
        expect.objectContaining({ severity: 'warning', path: 'spec.nfs' }),
      ]);
  });

  // Fiware-Community/kubernetes-in-FiwareLab UI/K8s/roles/kubernetes-common/tasks/main.yml (held-out-395):
  // yum with `name: "{{ packages }}"` and the list in the task's own vars, as Ansible's docs write it.
  test("real world: a task whose name is a variable its own vars list makes it a warning; another variable's does not", () => {
    const task = (vars: string) =>
      `- name: ensure a list of kubernetes packages installed\n  yum:\n    name: "{{ packages }}"\n    state: present\n  vars:\n${vars}  when: ansible_os_family == 'RedHat'\n`;
    expect(
      nfsFindings({ 'roles/kubernetes-common/tasks/main.yml': task('    packages:\n    - wget\n    - nfs-utils\n') }),
    ).toEqual([expect.objectContaining({ severity: 'warning', path: 'spec.nfs' })]);
    expect(nfsFindings({ 'roles/kubernetes-common/tasks/main.yml': task('    tools:\n    - nfs-utils\n') })).toEqual([
      expect.objectContaining({ severity: 'error', path: 'spec.nfs' }),
    ]);
  });

  test('a cloud-init cloud-config that installs nfs-common makes it a warning', () => {
    expect(
      nfsFindings({
        'nodes/user-data.yaml': 'package_update: true\npackages:\n  - nfs-common\nruncmd:\n  - echo ready\n',
      }),
    ).toEqual([expect.objectContaining({ severity: 'warning', path: 'spec.nfs' })]);
  });

  // vndmtrx/vagrant-k8s-cluster scripts/201-base.sh and luislclt/kubernetes-arm prerequeriments.sh
  // (held-out-494, held-out-491): node preparation by shell script, a command continued over lines;
  // alientsai/Deeplook_k8s Install/script/install_packages.offline.sh (held-out-483): offline .deb files.
  test('real world: a provisioning shell script or Vagrantfile that installs the NFS client makes it a warning', () => {
    const scripts: Array<Record<string, string>> = [
      { 'scripts/201-base.sh': '#!/bin/bash\napt-get update -q\napt-get install -yq nfs-common\n' },
      { 'prerequeriments.sh': 'sudo apt install -y \\\n    curl \\\n    nfs-common \\\n    open-iscsi\n' },
      {
        'Install/script/install_packages.offline.sh':
          'dpkg -i ./kubernetes/1.11.3/nfs-common_1%3a1.2.8-9ubuntu12.1_amd64.deb && \\\n  echo ok\n',
      },
      { Vagrantfile: 'config.vm.provision "shell", inline: "yum install -y nfs-utils"\n' },
    ];
    for (const files of scripts)
      expect(nfsFindings(files)).toEqual([expect.objectContaining({ severity: 'warning', path: 'spec.nfs' })]);
    const [finding] = nfsFindings(scripts[0]!);
    expect(finding?.message).toContain('(nfs-common, with a shell script in scripts/201-base.sh)');
  });

  test('a script that only mentions the package, or installs the NFS server, leaves the error', () => {
    for (const script of ['echo "install nfs-common on every node first"\n', 'apt-get install -y nfs-kernel-server\n'])
      expect(nfsFindings({ 'setup.sh': script })).toEqual([
        expect.objectContaining({ severity: 'error', path: 'spec.nfs' }),
      ]);
  });

  // humstarman/workspace-manifest nfs/scripts/install-nfs.sh (held-out-528): the NFS server's setup,
  // which installs nfs-utils (client and server on RHEL) on the host it exports from.
  test("real world: a script that sets up an NFS server installs nfs-utils for the server, not the cluster's nodes", () => {
    const server = [
      '#!/bin/bash',
      'DEFAULT_EXPORT="/etc/exports"',
      'EXPORT=${EXPORT:-"$DEFAULT_EXPORT"}',
      'yum install -y rpc-bind nfs-utils',
      'cat > $EXPORT << EOF',
      '$NFS        *(no_root_squash,rw,sync,no_subtree_check)',
      'EOF',
      'systemctl enable nfs',
      '',
    ].join('\n');
    expect(nfsFindings({ 'nfs/scripts/install-nfs.sh': server })).toEqual([
      expect.objectContaining({ severity: 'error', path: 'spec.nfs' }),
    ]);
    const exportfs =
      'apt-get install -y nfs-common\necho "/srv *(rw)" | tee -a /etc/exports.d/k8s.exports\nexportfs -ra\n';
    expect(nfsFindings({ 'server.sh': exportfs })).toEqual([
      expect.objectContaining({ severity: 'error', path: 'spec.nfs' }),
    ]);
    // A node script that only mounts a share, or starts the client's own services, is preparation.
    const client = 'yum install -y nfs-utils\nsystemctl enable --now rpcbind\nmount -t nfs nas:/srv /mnt\n';
    expect(nfsFindings({ 'node.sh': client })).toEqual([
      expect.objectContaining({ severity: 'warning', path: 'spec.nfs' }),
    ]);
  });

  test('installing only the NFS server, the Ceph client, or a package list outside Ansible variables leaves the error', () => {
    const notTheClient: Array<Record<string, string>> = [
      { 'playbooks/server.yml': '- hosts: nas\n  tasks:\n    - apt: {name: nfs-kernel-server}\n' },
      { 'playbooks/ceph.yml': '- hosts: all\n  tasks:\n    - apt: {name: ceph-common}\n' },
      { 'config/packages.yaml': 'packages:\n  - nfs-common\n' },
      { 'docs/notes.yaml': 'tools:\n  - nfs-common\n' },
    ];
    for (const files of notTheClient)
      expect(nfsFindings(files)).toEqual([expect.objectContaining({ severity: 'error', path: 'spec.nfs' })]);
  });

  test('the node-preparation files themselves get no finding', () => {
    const tree = tempTree({
      'roles/common/vars/main.yml': 'packages_to_install: [nfs-common]\n',
      'site.yml': '- hosts: all\n  tasks:\n    - apt: {name: nfs-common}\n',
    });
    try {
      expect(lint([tree.dir], { cwd: tree.dir }).findings).toEqual([]);
    } finally {
      tree.cleanup();
    }
  });
});

import * as fs from 'fs';
import * as path from 'path';
import { parseSystemdDropIn } from '../../../../validators';
import { findingsFor, ruleHits } from '../../../support/findings';

const config = (fields: Record<string, unknown>, name = 'node') => ({
  apiVersion: 'kubelet.config.k8s.io/v1beta1',
  kind: 'KubeletConfiguration',
  metadata: { name },
  ...fields,
});
const allDefaults127 = {
  'memory.available': '100Mi',
  'nodefs.available': '10%',
  'nodefs.inodesFree': '5%',
  'imagefs.available': '15%',
};
const allDefaults130 = { ...allDefaults127, 'imagefs.inodesFree': '5%' };
const staticKubeletPod = (args: string[]) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'kubelet', namespace: 'kube-system' },
  spec: { containers: [{ name: 'kubelet', image: 'kubelet:1.27', command: ['/usr/bin/kubelet'], args }] },
});
const dropIn = (text: string, file = '/etc/systemd/system/kubelet.service.d/20-eviction.conf') =>
  parseSystemdDropIn(text, file);
const incident4 = () =>
  dropIn(
    fs.readFileSync(path.join(__dirname, '../../../fixtures/incident-4/10-eviction.conf'), 'utf8'),
    '/etc/systemd/system/kubelet.service.d/10-eviction.conf',
  );
const row = (kind: string, name: string, fieldPath: string, severity = 'error') => ({
  kind,
  name,
  path: fieldPath,
  severity,
  suppressed: false,
});

describe('eviction-hard-drops-default-signals', () => {
  const id = 'eviction-hard-drops-default-signals';
  test('refuses incident 4: --eviction-hard=nodefs.available<5% in a kubelet drop-in', () => {
    expect(ruleHits([incident4()], id)).toEqual([row('SystemdDropIn', '10-eviction.conf', 'service.environment[0]')]);
    const message = findingsFor([incident4()]).find((f) => f.rule === id)!.message;
    expect(message).toContain(
      'memory.available (default 100Mi), nodefs.inodesFree (default 5%), imagefs.available (default 15%)',
    );
  });

  test('names imagefs.inodesFree among the lost signals from 1.30', () => {
    const message = findingsFor([config({ evictionHard: allDefaults127 })], { kubernetesVersion: '1.30' }).find(
      (f) => f.rule === id,
    )?.message;
    expect(message).toContain('imagefs.inodesFree (default 5%)');
    expect(ruleHits([config({ evictionHard: allDefaults127 })], id, { kubernetesVersion: '1.29' })).toEqual([]);
  });

  test('refuses a partial evictionHard map and an empty one, and partial flags in a static pod', () => {
    expect(ruleHits([config({ evictionHard: { 'memory.available': '200Mi' } })], id)).toEqual([
      row('KubeletConfiguration', 'node', 'evictionHard'),
    ]);
    expect(ruleHits([config({ evictionHard: {} })], id)).toEqual([row('KubeletConfiguration', 'node', 'evictionHard')]);
    expect(ruleHits([staticKubeletPod(['--eviction-hard', 'memory.available<1Gi'])], id)).toEqual([
      row('Pod', 'kubelet', 'spec.containers[0].args[1]'),
    ]);
  });

  test('passes a complete map, no map at all, and mergeDefaultEvictionSettings on 1.33 (not before)', () => {
    expect(
      ruleHits([config({ evictionHard: allDefaults130 }), config({ evictionMaxPodGracePeriod: 30 })], id, {
        kubernetesVersion: '1.30',
      }),
    ).toEqual([]);
    const merged = config({ evictionHard: { 'nodefs.available': '5%' }, mergeDefaultEvictionSettings: true });
    expect(ruleHits([merged], id, { kubernetesVersion: '1.33' })).toEqual([]);
    expect(ruleHits([merged], id, { kubernetesVersion: '1.32' })).toEqual([
      row('KubeletConfiguration', 'node', 'evictionHard'),
    ]);
  });
});

describe('eviction-soft-threshold-without-grace-period', () => {
  const id = 'eviction-soft-threshold-without-grace-period';
  test('refuses a soft threshold without a grace period, in config and in flags', () => {
    expect(
      ruleHits(
        [
          config({
            evictionSoft: { 'memory.available': '500Mi' },
            evictionSoftGracePeriod: { 'nodefs.available': '1m' },
          }),
        ],
        id,
      ),
    ).toEqual([row('KubeletConfiguration', 'node', 'evictionSoft[memory.available]')]);
    expect(ruleHits([staticKubeletPod(['--eviction-soft=memory.available<500Mi'])], id)).toEqual([
      row('Pod', 'kubelet', 'spec.containers[0].args[0]'),
    ]);
    expect(
      findingsFor([config({ evictionSoft: { 'memory.available': '500Mi' } })]).find((f) => f.rule === id)!.message,
    ).toContain('grace period must be specified for the soft eviction threshold memory.available');
  });
  test('passes a soft threshold with its grace period', () => {
    expect(
      ruleHits(
        [
          config({
            evictionSoft: { 'memory.available': '500Mi' },
            evictionSoftGracePeriod: { 'memory.available': '1m' },
          }),
        ],
        id,
      ),
    ).toEqual([]);
  });
});

describe('eviction-unknown-signal', () => {
  const id = 'eviction-unknown-signal';
  test('refuses a misspelt signal in any map, and a malformed flag pair', () => {
    expect(
      ruleHits(
        [
          config({
            evictionHard: { ...allDefaults127, 'nodefs.avaliable': '5%' },
            evictionMinimumReclaim: { 'memory.availble': '1Gi' },
          }),
        ],
        id,
      ),
    ).toEqual([
      row('KubeletConfiguration', 'node', 'evictionHard[nodefs.avaliable]'),
      row('KubeletConfiguration', 'node', 'evictionMinimumReclaim[memory.availble]'),
    ]);
    expect(ruleHits([staticKubeletPod(['--eviction-hard=memory.available=1Gi'])], id)).toEqual([
      row('Pod', 'kubelet', 'spec.containers[0].args[0]'),
    ]);
  });
  test('passes every known signal', () => {
    expect(
      ruleHits(
        [config({ evictionHard: { ...allDefaults130, 'pid.available': '10%', 'containerfs.available': '10%' } })],
        id,
      ),
    ).toEqual([]);
  });
});

describe('eviction-threshold-out-of-range', () => {
  const id = 'eviction-threshold-out-of-range';
  test.each([['105%'], ['-1%'], ['0'], ['-5Mi'], ['lots']])('refuses %s', (value) => {
    expect(ruleHits([config({ evictionHard: { ...allDefaults127, 'memory.available': value } })], id)).toEqual([
      row('KubeletConfiguration', 'node', 'evictionHard[memory.available]'),
    ]);
  });
  test("uses the kubelet's words", () => {
    expect(
      findingsFor([config({ evictionSoft: { 'nodefs.available': '105%' } })]).find((f) => f.rule === id)!.message,
    ).toContain('eviction percentage threshold nodefs.available must be <= 100%: 105%');
  });
  test.each([['10%'], ['7.5%'], ['1Gi'], ['500k']])('passes %s', (value) => {
    expect(ruleHits([config({ evictionHard: { ...allDefaults127, 'memory.available': value } })], id)).toEqual([]);
  });
});

describe('eviction-threshold-disables-signal', () => {
  const id = 'eviction-threshold-disables-signal';
  test('warns on 0% and 100%, which the kubelet silently ignores', () => {
    expect(
      ruleHits(
        [config({ evictionHard: { ...allDefaults127, 'memory.available': '0%', 'nodefs.inodesFree': '100%' } })],
        id,
      ),
    ).toEqual([
      row('KubeletConfiguration', 'node', 'evictionHard[memory.available]', 'warning'),
      row('KubeletConfiguration', 'node', 'evictionHard[nodefs.inodesFree]', 'warning'),
    ]);
  });
  test('passes real thresholds', () => {
    expect(ruleHits([config({ evictionHard: allDefaults127 })], id)).toEqual([]);
  });
});

describe('eviction-grace-period-invalid', () => {
  const id = 'eviction-grace-period-invalid';
  test('refuses a negative grace period and one without a unit', () => {
    expect(
      ruleHits([config({ evictionSoftGracePeriod: { 'memory.available': '-1m', 'nodefs.available': '90' } })], id),
    ).toEqual([
      row('KubeletConfiguration', 'node', 'evictionSoftGracePeriod[memory.available]'),
      row('KubeletConfiguration', 'node', 'evictionSoftGracePeriod[nodefs.available]'),
    ]);
  });
  test('passes Go durations (both micro signs, as Go accepts)', () => {
    expect(
      ruleHits(
        [
          config({
            evictionSoftGracePeriod: {
              'memory.available': '1m30s',
              'nodefs.available': '90s',
              'imagefs.available': '500\u00b5s',
              'pid.available': '500\u03bcs',
            },
          }),
        ],
        id,
      ),
    ).toEqual([]);
  });
});

describe('eviction-minimum-reclaim-invalid', () => {
  const id = 'eviction-minimum-reclaim-invalid';
  test('refuses a percentage <= 0 and a negative quantity', () => {
    expect(
      ruleHits([config({ evictionMinimumReclaim: { 'nodefs.available': '0%', 'memory.available': '-1Gi' } })], id),
    ).toEqual([
      row('KubeletConfiguration', 'node', 'evictionMinimumReclaim[memory.available]'),
      row('KubeletConfiguration', 'node', 'evictionMinimumReclaim[nodefs.available]'),
    ]);
  });
  test('passes positive values (and a zero quantity, which the kubelet accepts)', () => {
    expect(
      ruleHits([config({ evictionMinimumReclaim: { 'nodefs.available': '5%', 'memory.available': '0' } })], id),
    ).toEqual([]);
  });
});

describe('eviction-soft-not-above-hard', () => {
  const id = 'eviction-soft-not-above-hard';
  const soft = (value: string, hard?: Record<string, string>) =>
    config({
      ...(hard ? { evictionHard: hard } : {}),
      evictionSoft: { 'nodefs.available': value },
      evictionSoftGracePeriod: { 'nodefs.available': '2m' },
      evictionMaxPodGracePeriod: 60,
    });
  test('refuses a soft threshold at or below the written hard one, or below the kubelet default', () => {
    expect(ruleHits([soft('5%', { ...allDefaults127, 'nodefs.available': '5%' })], id)).toEqual([
      row('KubeletConfiguration', 'node', 'evictionSoft[nodefs.available]'),
    ]);
    expect(ruleHits([soft('8%')], id)).toEqual([row('KubeletConfiguration', 'node', 'evictionSoft[nodefs.available]')]);
  });
  test('passes a soft threshold above the hard one, and does not compare a quantity with a percentage', () => {
    expect(ruleHits([soft('15%'), soft('20Gi', allDefaults127)], id)).toEqual([]);
  });
});

describe('eviction-soft-without-max-pod-grace-period', () => {
  const id = 'eviction-soft-without-max-pod-grace-period';
  const withSoft = (extra: Record<string, unknown>) =>
    config({
      evictionSoft: { 'memory.available': '500Mi' },
      evictionSoftGracePeriod: { 'memory.available': '1m' },
      ...extra,
    });
  test('warns when evictionMaxPodGracePeriod is unset or 0', () => {
    expect(ruleHits([withSoft({})], id)).toEqual([row('KubeletConfiguration', 'node', 'evictionSoft', 'warning')]);
    expect(ruleHits([withSoft({ evictionMaxPodGracePeriod: 0 })], id)).toEqual([
      row('KubeletConfiguration', 'node', 'evictionMaxPodGracePeriod', 'warning'),
    ]);
  });
  test('passes a grace period, and configurations without soft thresholds', () => {
    expect(
      ruleHits([withSoft({ evictionMaxPodGracePeriod: 60 }), config({ evictionHard: allDefaults127 })], id),
    ).toEqual([]);
  });
});

describe('eviction-disk-hard-threshold-below-5-percent', () => {
  const id = 'eviction-disk-hard-threshold-below-5-percent';
  test('warns on nodefs.available or imagefs.available below 5%', () => {
    expect(
      ruleHits(
        [config({ evictionHard: { ...allDefaults127, 'nodefs.available': '2%', 'imagefs.available': '4.5%' } })],
        id,
      ),
    ).toEqual([
      row('KubeletConfiguration', 'node', 'evictionHard[imagefs.available]', 'warning'),
      row('KubeletConfiguration', 'node', 'evictionHard[nodefs.available]', 'warning'),
    ]);
  });
  test('passes 5% and above, and other signals', () => {
    expect(
      ruleHits(
        [config({ evictionHard: { ...allDefaults127, 'nodefs.available': '5%', 'nodefs.inodesFree': '1%' } })],
        id,
      ),
    ).toEqual([]);
  });
});

describe('kubelet-drop-in-exec-start-without-reset', () => {
  const id = 'kubelet-drop-in-exec-start-without-reset';
  test('refuses an ExecStart= without the empty reset line, and a second one after it', () => {
    expect(ruleHits([dropIn('[Service]\nExecStart=/usr/bin/kubelet $KUBELET_CONFIG_ARGS\n')], id)).toEqual([
      row('SystemdDropIn', '20-eviction.conf', 'service.execStart[0]'),
    ]);
    expect(
      ruleHits([dropIn('[Service]\nExecStart=\nExecStart=/usr/bin/kubelet\nExecStart=/usr/bin/kubelet -v=2\n')], id),
    ).toEqual([row('SystemdDropIn', '20-eviction.conf', 'service.execStart[2]')]);
  });
  test('passes a reset followed by one command, and drop-ins of other units', () => {
    expect(
      ruleHits(
        [
          dropIn('[Service]\nExecStart=\nExecStart=/usr/bin/kubelet $KUBELET_CONFIG_ARGS\n'),
          dropIn('[Service]\nExecStart=/usr/bin/other\n', '/etc/systemd/system/other.service.d/x.conf'),
        ],
        id,
      ),
    ).toEqual([]);
  });
});

describe('kubelet-drop-in-flags-ignored', () => {
  const id = 'kubelet-drop-in-flags-ignored';
  test("refuses a flag variable that no ExecStart references (kubeadm's or the drop-in's own)", () => {
    expect(
      ruleHits([dropIn('[Service]\nEnvironment="KUBELET_EVICTION_ARGS=--eviction-hard=memory.available<1Gi"\n')], id),
    ).toEqual([row('SystemdDropIn', '20-eviction.conf', 'service.environment[0]')]);
    expect(
      ruleHits(
        [
          dropIn(
            '[Service]\nEnvironment="MY_ARGS=--v=2"\nExecStart=\nExecStart=/usr/bin/kubelet $KUBELET_CONFIG_ARGS\n',
          ),
        ],
        id,
      ),
    ).toEqual([row('SystemdDropIn', '20-eviction.conf', 'service.environment[0]')]);
  });
  // rosi-achmad/cks-build, hobby-kube/provisioning, gigix74/kubernetes-cluster (held-out-117,
  // 484, 494): the deb and RPM packages ship /etc/default/kubelet as `KUBELET_EXTRA_ARGS=`, which
  // kubeadm's EnvironmentFile= reads, so a drop-in's Environment= value of it never reaches the kubelet.
  test("real world: refuses an Environment= of KUBELET_EXTRA_ARGS that kubeadm's EnvironmentFile= overrides (incident 4's drop-in)", () => {
    expect(ruleHits([incident4()], id)).toEqual([row('SystemdDropIn', '10-eviction.conf', 'service.environment[0]')]);
    const [finding] = findingsFor([incident4()]).filter((f) => f.rule === id);
    expect(finding?.message).toContain('which the Kubernetes packages (or kubeadm init and join) write on every node');
  });
  test('passes a variable of its own referenced by its ExecStart=', () => {
    expect(
      ruleHits(
        [
          dropIn(
            '[Service]\nEnvironment="KUBELET_EVICTION_ARGS=--v=2"\nExecStart=\n' +
              'ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS ${KUBELET_EVICTION_ARGS} $KUBELET_EXTRA_ARGS\n',
          ),
        ],
        id,
      ),
    ).toEqual([]);
  });
  // mickeysh/K8S-Vagrant-Ansible- 10-kubeadm.conf (held-out-22): kubeadm's drop-in rewritten with
  // KUBELET_KUBEADM_ARGS set inline and the kubeadm-flags.env line commented out.
  const kubeadmDropIn = (environmentFiles: string) =>
    dropIn(
      '[Service]\n' +
        'Environment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml"\n' +
        'Environment="KUBELET_KUBEADM_ARGS=--cgroup-driver=systemd --network-plugin=cni"\n' +
        environmentFiles +
        'EnvironmentFile=-/etc/sysconfig/kubelet\n' +
        'ExecStart=\n' +
        'ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS\n',
      '/etc/systemd/system/kubelet.service.d/10-kubeadm.conf',
    );
  test("real world: a 10-kubeadm.conf replaces kubeadm's drop-in, so only the EnvironmentFile= lines it keeps override its Environment=", () => {
    expect(ruleHits([kubeadmDropIn('# EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env\n')], id)).toEqual([]);
    expect(ruleHits([kubeadmDropIn('EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env\n')], id)).toEqual([
      row('SystemdDropIn', '10-kubeadm.conf', 'service.environment[1]'),
    ]);
  });
  test('a drop-in that clears EnvironmentFile= and names kubeadm-flags.env again is still overridden by it', () => {
    const text =
      '[Service]\nEnvironment="KUBELET_KUBEADM_ARGS=--v=2"\nEnvironmentFile=\nEnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env\n';
    expect(ruleHits([dropIn(text)], id)).toEqual([row('SystemdDropIn', '20-eviction.conf', 'service.environment[0]')]);
    expect(ruleHits([dropIn('[Service]\nEnvironment="KUBELET_KUBEADM_ARGS=--v=2"\nEnvironmentFile=\n')], id)).toEqual(
      [],
    );
  });
});

describe('kubelet-drop-in-sorts-before-kubeadm', () => {
  const id = 'kubelet-drop-in-sorts-before-kubeadm';
  const replacing = '[Service]\nExecStart=\nExecStart=/usr/bin/kubelet $KUBELET_CONFIG_ARGS\n';
  test('refuses a drop-in replacing ExecStart= whose name sorts before 10-kubeadm.conf', () => {
    expect(ruleHits([dropIn(replacing, '/etc/systemd/system/kubelet.service.d/05-eviction.conf')], id)).toEqual([
      row('SystemdDropIn', '05-eviction.conf', 'service.execStart[0]'),
    ]);
  });
  test('passes one that sorts after it', () => {
    expect(ruleHits([dropIn(replacing, '/etc/systemd/system/kubelet.service.d/20-eviction.conf')], id)).toEqual([]);
  });
  test('passes a version of the kubeadm drop-in itself, which is installed in its place', () => {
    // gluster/gluster-kubernetes vagrant/roles/common/files/10-kubeadm-post-1.8.conf (held-out-97):
    // the Ansible role's post-1.8 copy of 10-kubeadm.conf, beside the older one it replaces.
    const kubeadmVersion =
      '[Service]\n' +
      'Environment="KUBELET_KUBECONFIG_ARGS=--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf"\n' +
      'Environment="KUBELET_CGROUP_ARGS=--cgroup-driver=systemd"\n' +
      'ExecStart=\n' +
      'ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_EXTRA_ARGS $KUBELET_CGROUP_ARGS\n';
    expect(ruleHits([dropIn(kubeadmVersion, '/vagrant/roles/common/files/10-kubeadm-post-1.8.conf')], id)).toEqual([]);
    expect(ruleHits([dropIn(replacing, '/vagrant/roles/common/files/10-kubeadm-extra.conf')], id)).toEqual([
      row('SystemdDropIn', '10-kubeadm-extra.conf', 'service.execStart[0]'),
    ]);
  });
});

describe('deprecated-kubelet-eviction-flag', () => {
  const id = 'deprecated-kubelet-eviction-flag';
  test('warns on --eviction-* flags in drop-ins and kubelet containers (shell form too)', () => {
    expect(ruleHits([incident4()], id)).toEqual([
      row('SystemdDropIn', '10-eviction.conf', 'service.environment[0]', 'warning'),
    ]);
    const shell = {
      ...staticKubeletPod([]),
      spec: {
        containers: [
          { name: 'k', image: 'x', command: ['sh', '-c', 'exec kubelet --eviction-max-pod-grace-period=30'] },
        ],
      },
    };
    expect(ruleHits([shell], id)).toEqual([row('Pod', 'kubelet', 'spec.containers[0].command[2]', 'warning')]);
  });
  test('passes KubeletConfiguration and containers that are not the kubelet', () => {
    const other = {
      ...staticKubeletPod([]),
      spec: { containers: [{ name: 'app', image: 'x', command: ['app', '--eviction-hard=x<1'] }] },
    };
    expect(ruleHits([config({ evictionHard: allDefaults127 }), other], id)).toEqual([]);
  });
});

test("incident 4's drop-in is refused: its flag drops the defaults, and kubeadm's EnvironmentFile= overrides it", () => {
  const errors = findingsFor([incident4()])
    .filter((f) => f.severity === 'error')
    .map((f) => f.rule);
  expect(errors).toEqual(['eviction-hard-drops-default-signals', 'kubelet-drop-in-flags-ignored']);
});

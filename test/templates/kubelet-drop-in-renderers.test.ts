import { SYSTEMD_ANALYZE_INSTALL, testWithBinary } from '../support/external-binary';
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as jsYaml from 'js-yaml';
import { KubeletEvictionPolicy } from '../../constructs/kubelet-eviction-policy';
import { renderKubeletConfigDropIn } from '../../templates/kubelet-config-drop-in';
import { renderKubeletConfigFragment } from '../../templates/kubelet-config-fragment';
import { renderKubeletSystemdDropIn } from '../../templates/kubelet-systemd-drop-in';
import { parseSystemdDropIn, splitWords, validateObjects } from '../../validators';
import { scratchDir } from '../support/scratch-dir';

const policy = new KubeletEvictionPolicy({
  kubernetesVersion: '1.30',
  hard: { 'nodefs.available': '5%' },
  soft: { 'nodefs.available': { threshold: '10%', gracePeriod: '2m' } },
});

// kubeadm's unit and drop-in as the kubelet packages install them (kubernetes/release).
const KUBELET_SERVICE = `[Unit]
Description=kubelet: The Kubernetes Node Agent
Wants=network-online.target
After=network-online.target

[Service]
ExecStart=/usr/bin/kubelet
Restart=always
StartLimitInterval=0
RestartSec=10

[Install]
WantedBy=multi-user.target
`;
const KUBEADM_DROP_IN = `[Service]
Environment="KUBELET_KUBECONFIG_ARGS=--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf"
Environment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml"
EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env
EnvironmentFile=-/etc/default/kubelet
ExecStart=
ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS
`;

/** A scratch root with kubelet.service, kubeadm's drop-in, a kubelet binary and the targets systemd needs. */
function scratchRoot(dropIns: Record<string, string>): string {
  const root = scratchDir('ballast-systemd');
  const write = (file: string, content: string, mode = 0o644) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content, { mode });
  };
  write('usr/lib/systemd/system/kubelet.service', KUBELET_SERVICE);
  write('usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf', KUBEADM_DROP_IN);
  for (const target of ['sysinit', 'basic', 'shutdown', 'network-online', 'multi-user']) {
    write(`usr/lib/systemd/system/${target}.target`, `[Unit]\nDescription=${target}\n`);
  }
  write('usr/bin/kubelet', '#!/bin/sh\nexit 0\n', 0o755);
  for (const [name, content] of Object.entries(dropIns)) write(`etc/systemd/system/kubelet.service.d/${name}`, content);
  return root;
}

function verify(root: string): { status: number | null; output: string } {
  const result = spawnSync(
    'systemd-analyze',
    ['verify', `--root=${root}`, '--man=no', '--generators=no', 'kubelet.service'],
    { encoding: 'utf8' },
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/**
 * The command systemd will run: drop-ins in file-name order (as `systemd-analyze cat-config`
 * lists them), ExecStart= resets applied, $VARIABLES expanded from Environment= (the
 * EnvironmentFile= files do not exist in the scratch root).
 */
function effectiveCommand(root: string): string[] {
  const text = execFileSync('systemd-analyze', [`--root=${root}`, 'cat-config', 'systemd/system/kubelet.service'], {
    encoding: 'utf8',
  });
  const files = text.split(/^# (?=\/)/m).filter((part) => part.trim() !== '');
  const environment = new Map<string, string>();
  let command: string[] = [];
  for (const file of files) {
    const dropIn = parseSystemdDropIn(file.slice(file.indexOf('\n') + 1), file.slice(0, file.indexOf('\n')));
    for (const entry of dropIn.service.environment) if (entry.name) environment.set(entry.name, entry.value ?? '');
    for (const entry of dropIn.service.execStart) command = entry.reset ? [] : [...(entry.argv ?? [])];
  }
  return command.flatMap((word) => {
    const variable = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(word);
    return variable ? splitWords(environment.get(variable[1] ?? '') ?? '').words : [word];
  });
}

describe('the kubelet systemd drop-in', () => {
  const testWithSystemd = testWithBinary('systemd-analyze', SYSTEMD_ANALYZE_INSTALL);
  const dropIn = renderKubeletSystemdDropIn(policy.flagSettings());

  testWithSystemd('systemd accepts it beside kubelet.service and 10-kubeadm.conf', () => {
    expect(verify(scratchRoot({ '20-ballast-eviction.conf': dropIn }))).toEqual({ status: 0, output: '' });
  });

  testWithSystemd('the check itself fails on a drop-in without the ExecStart= reset', () => {
    const broken = dropIn.replace('ExecStart=\n', '');
    const result = verify(scratchRoot({ '20-ballast-eviction.conf': broken }));
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('more than one ExecStart=');
  });

  testWithSystemd("the effective ExecStart keeps kubeadm's chain and carries each eviction flag exactly once", () => {
    const command = effectiveCommand(scratchRoot({ '20-ballast-eviction.conf': dropIn }));
    expect(command[0]).toBe('/usr/bin/kubelet');
    expect(command).toContain('--config=/var/lib/kubelet/config.yaml');
    expect(command).toContain('--kubeconfig=/etc/kubernetes/kubelet.conf');
    const evictionFlags = command.filter((word) => word.startsWith('--eviction-'));
    expect(evictionFlags).toEqual([
      '--eviction-hard=memory.available<100Mi,nodefs.available<5%,nodefs.inodesFree<5%,imagefs.available<15%,imagefs.inodesFree<5%',
      '--eviction-soft=nodefs.available<10%',
      '--eviction-soft-grace-period=nodefs.available=2m',
      '--eviction-max-pod-grace-period=60',
    ]);
  });

  test("passes ballast's own drop-in rules (only the deprecation warnings remain)", () => {
    const report = validateObjects(
      [{ object: parseSystemdDropIn(dropIn, '/etc/systemd/system/kubelet.service.d/20-ballast-eviction.conf') }],
      { kubernetesVersion: '1.30' },
    );
    expect(report.errors).toBe(0);
    expect(new Set(report.findings.map((f) => f.rule))).toEqual(new Set(['deprecated-kubelet-eviction-flag']));
  });
});

describe('the KubeletConfiguration renderers', () => {
  test('the --config-dir drop-in is a complete KubeletConfiguration naming every default signal', () => {
    const object = jsYaml.load(renderKubeletConfigDropIn(policy.configurationSettings())) as Record<string, unknown>;
    expect(object).toEqual({
      apiVersion: 'kubelet.config.k8s.io/v1beta1',
      kind: 'KubeletConfiguration',
      evictionHard: {
        'memory.available': '100Mi',
        'nodefs.available': '5%',
        'nodefs.inodesFree': '5%',
        'imagefs.available': '15%',
        'imagefs.inodesFree': '5%',
      },
      evictionSoft: { 'nodefs.available': '10%' },
      evictionSoftGracePeriod: { 'nodefs.available': '2m' },
      evictionMaxPodGracePeriod: 60,
    });
    expect(
      validateObjects([{ object: { ...object, metadata: { name: 'drop-in' } } }], { kubernetesVersion: '1.30' })
        .findings,
    ).toEqual([]);
  });

  test('from 1.33 the merge-defaults choice is written either way', () => {
    const merged = new KubeletEvictionPolicy({
      kubernetesVersion: '1.33',
      hard: { 'nodefs.available': '5%' },
      defaults: 'merge-by-kubelet',
    });
    expect(jsYaml.load(renderKubeletConfigDropIn(merged.configurationSettings()))).toMatchObject({
      mergeDefaultEvictionSettings: true,
      evictionHard: { 'nodefs.available': '5%' },
    });
    const explicit = new KubeletEvictionPolicy({ kubernetesVersion: '1.33' });
    expect(jsYaml.load(renderKubeletConfigFragment(explicit.configurationSettings()))).toMatchObject({
      mergeDefaultEvictionSettings: false,
    });
  });

  test('the config.yaml fragment holds only the eviction keys', () => {
    const fragment = jsYaml.load(renderKubeletConfigFragment(policy.configurationSettings())) as Record<
      string,
      unknown
    >;
    expect(Object.keys(fragment)).toEqual([
      'evictionHard',
      'evictionSoft',
      'evictionSoftGracePeriod',
      'evictionMaxPodGracePeriod',
    ]);
  });
});

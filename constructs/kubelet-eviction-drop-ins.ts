import { Construct } from 'constructs';
import { validateObjects } from '../validators/engine';
import { parseSystemdDropIn } from '../validators/systemd-drop-in';
import {
  KUBELET_CONFIG_DIR,
  KUBELET_EVICTION_CONFIG_DROP_IN,
  renderKubeletConfigDropIn,
} from '../templates/kubelet-config-drop-in';
import { renderKubeletConfigFragment } from '../templates/kubelet-config-fragment';
import {
  KUBELET_EVICTION_SYSTEMD_DROP_IN,
  KUBELET_SYSTEMD_DROP_IN_DIR,
  renderKubeletSystemdDropIn,
} from '../templates/kubelet-systemd-drop-in';
import { findingLine } from '../validators/finding-text';
import { BallastGate } from './ballast-gate';
import { KubeletEvictionPolicy, KubeletEvictionPolicyProps } from './kubelet-eviction-policy';
import { NodeFilesOutput } from './node-files-output';
import { PropProblems } from './prop-error';

/** A way the drop-ins reach the kubelet; each is rendered into its own directory. */
export type KubeletEvictionRendering = 'config-dir' | 'systemd-drop-in' | 'config-fragment';

export interface KubeletEvictionDropInsProps extends Omit<KubeletEvictionPolicyProps, 'kubernetesVersion'> {
  /** The node pool: files go to `<outdir>/nodes/<pool>/`. Lowercase letters, digits and dashes. */
  readonly pool: string;
  /**
   * The kubelet version of the pool's nodes.
   * @default - the app's target version (BallastGate)
   */
  readonly kubernetesVersion?: string;
  /**
   * What to render. `config-dir` needs a 1.30+ kubelet started with --config-dir.
   * @default ['config-dir', 'config-fragment'] from 1.30, ['systemd-drop-in', 'config-fragment'] before
   */
  readonly renderings?: readonly KubeletEvictionRendering[];
}

/**
 * Renders a node pool's kubelet eviction policy into node files under `<outdir>/nodes/<pool>/`
 * during `cdk8s synth`, one directory per rendering:
 * - `config-dir/etc/kubernetes/kubelet.conf.d/50-ballast-eviction.conf` (KubeletConfiguration drop-in),
 * - `systemd-drop-in/etc/systemd/system/kubelet.service.d/20-ballast-eviction.conf` (kubeadm layout, flags),
 * - `config-fragment.txt` (keys to merge into /var/lib/kubelet/config.yaml).
 * The `config-dir` and `systemd-drop-in` directories mirror the node's file system: each is a
 * ready STAGING_DIR for templates/apply-kubelet-dropins.sh. The rendered files are checked with
 * ballast's eviction rules at synth: an error refuses synth like the gate does.
 *
 * ```ts
 * new KubeletEvictionDropIns(chartOrApp, 'small-disk', {
 *   pool: 'small-disk',
 *   hard: { 'nodefs.available': '5%' },
 *   soft: { 'nodefs.available': { threshold: '10%', gracePeriod: '2m' } },
 * });
 * ```
 */
export class KubeletEvictionDropIns extends Construct {
  public readonly policy: KubeletEvictionPolicy;
  /** The rendered files, path relative to `<outdir>/nodes/<pool>/` -> content. */
  public readonly files: ReadonlyMap<string, string>;

  constructor(scope: Construct, id: string, props: KubeletEvictionDropInsProps) {
    super(scope, id);
    const gate = BallastGate.of(this);
    const problems = new PropProblems();
    if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(props.pool ?? '')) {
      problems.add(
        'pool',
        props.pool,
        'it names a directory under dist/nodes/',
        'use lowercase letters, digits and dashes, e.g. "small-disk"',
      );
    }
    const { pool, renderings, ...policyProps } = props;
    const policy = problems.collect(
      () =>
        new KubeletEvictionPolicy({
          ...policyProps,
          kubernetesVersion: props.kubernetesVersion ?? gate.kubernetesVersion.toString(),
        }),
    );
    const modern = policy ? policy.kubernetesVersion.atLeast('1.30') : gate.kubernetesVersion.atLeast('1.30');
    const chosen = [
      ...new Set(renderings ?? (modern ? ['config-dir', 'config-fragment'] : ['systemd-drop-in', 'config-fragment'])),
    ].sort();
    if (chosen.includes('config-dir') && !modern) {
      problems.add(
        'renderings',
        renderings,
        `kubelet --config-dir is alpha before 1.30 (kubelet ${policy?.kubernetesVersion ?? gate.kubernetesVersion})`,
        "use 'systemd-drop-in' or 'config-fragment'",
      );
    }
    problems.throwIfAny(this);
    // A policy that failed to build left problems behind, so throwIfAny has thrown.
    if (!policy) throw new Error(`${this.node.path}: eviction policy missing without a reported problem`);
    this.policy = policy;
    const files = new Map<string, string>();
    if (chosen.includes('config-dir')) {
      files.set(
        `config-dir${KUBELET_CONFIG_DIR}/${KUBELET_EVICTION_CONFIG_DROP_IN}`,
        renderKubeletConfigDropIn(this.policy.configurationSettings()),
      );
    }
    if (chosen.includes('config-fragment')) {
      files.set('config-fragment.txt', renderKubeletConfigFragment(this.policy.configurationSettings()));
    }
    if (chosen.includes('systemd-drop-in')) {
      files.set(
        `systemd-drop-in${KUBELET_SYSTEMD_DROP_IN_DIR}/${KUBELET_EVICTION_SYSTEMD_DROP_IN}`,
        renderKubeletSystemdDropIn(this.policy.flagSettings()),
      );
    }
    this.files = files;
    NodeFilesOutput.of(this).addDirectory(`nodes/${pool}`, () => this.files);
    this.node.addValidation({ validate: () => this.checkRenderedFiles() });
  }

  /** The same eviction rules `ballast lint` runs, on what this construct renders. */
  private checkRenderedFiles(): string[] {
    const settings = this.policy.configurationSettings();
    const objects: unknown[] = [
      {
        apiVersion: 'kubelet.config.k8s.io/v1beta1',
        kind: 'KubeletConfiguration',
        metadata: { name: `${this.node.id}-config` },
        ...settings,
      },
    ];
    for (const [file, content] of this.files) {
      if (file.startsWith('systemd-drop-in/')) objects.push(parseSystemdDropIn(content, file));
    }
    // The app's options (rules switched off, severities, parameters) apply here as everywhere in
    // the app; only the version is the kubelet's own.
    const report = validateObjects(
      objects.map((object) => ({ object, source: { constructPath: this.node.path } })),
      {
        ...BallastGate.of(this).options,
        kubernetesVersion: this.policy.kubernetesVersion,
      },
    );
    return report.findings.filter((finding) => finding.severity === 'error').map(findingLine);
  }
}

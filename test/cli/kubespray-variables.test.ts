import * as fs from 'fs';
import * as path from 'path';
import { lint } from '../../cli/lint-command';
import { runFix } from '../../cli/fix-command';
import { tempTree } from './run-cli';

const SILENT = { out: () => undefined, err: () => undefined };
const VARS = 'inventory/prod/group_vars/k8s-cluster';

/** geksogen/Kubernetes_learn_sl 6.Kubespray_ok (held-out-12): kubelet flags in a Kubespray inventory. */
const CUSTOM_FLAGS = `kubelet_custom_flags:
  - "--cpu-manager-policy=static"
  - "--eviction-hard=memory.available<1Gi"
  - "--eviction-max-pod-grace-period=30"

kube_memory_reserved: 512M
`;
const EVICTION_HARD = 'eviction_hard:\n  memory.available: 500Mi\n';
const EXTRA_ARGS = 'kubelet_config_extra_args:\n  evictionHard:\n    nodefs.available: 5%\n';

const errors = (dir: string) =>
  lint([dir], { cwd: dir, kubeVersion: '1.29' })
    .findings.filter((f) => f.severity === 'error')
    .map((f) => [f.rule, path.relative(dir, f.file ?? ''), f.path, f.line]);

describe('Kubespray inventory variables that reach the kubelet', () => {
  test('real world: kubelet_custom_flags, eviction_hard and kubelet_config_extra_args that drop default signals are refused', () => {
    const { dir, cleanup } = tempTree({
      [`${VARS}/k8s-prod-limit.yml`]: CUSTOM_FLAGS,
      [`${VARS}/eviction.yml`]: EVICTION_HARD,
      [`${VARS}/extra.yml`]: EXTRA_ARGS,
    });
    try {
      expect(errors(dir)).toEqual([
        ['eviction-hard-drops-default-signals', `${VARS}/eviction.yml`, 'eviction_hard', 1],
        ['eviction-hard-drops-default-signals', `${VARS}/extra.yml`, 'kubelet_config_extra_args.evictionHard', 2],
        ['eviction-hard-drops-default-signals', `${VARS}/k8s-prod-limit.yml`, 'kubelet_custom_flags[1]', 3],
      ]);
    } finally {
      cleanup();
    }
  });

  test('the same keys outside an inventory (Helm values, other YAML) are not read', () => {
    const { dir, cleanup } = tempTree({
      'values.yaml': CUSTOM_FLAGS,
      'roles/kubelet/defaults/main.yml': EVICTION_HARD,
    });
    try {
      expect(errors(dir)).toEqual([]);
    } finally {
      cleanup();
    }
  });

  test('`ballast fix` completes the flag and the map in place; the inventory then passes', () => {
    const { dir, cleanup } = tempTree({
      [`${VARS}/k8s-prod-limit.yml`]: CUSTOM_FLAGS,
      [`${VARS}/eviction.yml`]: EVICTION_HARD,
    });
    try {
      runFix([dir], { kubeVersion: '1.29' }, SILENT);
      expect(fs.readFileSync(path.join(dir, VARS, 'k8s-prod-limit.yml'), 'utf8')).toContain(
        '  - "--eviction-hard=memory.available<1Gi,nodefs.available<10%,nodefs.inodesFree<5%,imagefs.available<15%"\n',
      );
      expect(fs.readFileSync(path.join(dir, VARS, 'eviction.yml'), 'utf8')).toBe(
        'eviction_hard:\n  memory.available: 500Mi\n  nodefs.available: 10%\n  nodefs.inodesFree: 5%\n  imagefs.available: 15%\n',
      );
      expect(errors(dir)).toEqual([]);
    } finally {
      cleanup();
    }
  });
});

import * as path from 'path';
import { validateObjects } from '../../../../validators';
import { lintJson, tempTree } from '../../../cli/run-cli';
import { ruleHits } from '../../../support/findings';

const RULE = 'eviction-hard-drops-default-signals';
const PARTIAL =
  'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nevictionHard:\n  nodefs.available: "5%"\n';

describe('kubelet configuration in the kubelet-config ConfigMap and in --config-dir drop-ins', () => {
  test('kube-system/kubelet-config (kubeadm keeps the cluster KubeletConfiguration there): judged like the file, at its data key', () => {
    const configMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'kubelet-config', namespace: 'kube-system' },
      data: { kubelet: PARTIAL },
    };
    expect(ruleHits([configMap], RULE, { kubernetesVersion: '1.31' })).toEqual([
      expect.objectContaining({ kind: 'ConfigMap', severity: 'error', path: 'data.kubelet.evictionHard' }),
    ]);
    const complete = {
      ...configMap,
      data: {
        kubelet: `${PARTIAL}  memory.available: 100Mi\n  nodefs.inodesFree: 5%\n  imagefs.available: 15%\n  imagefs.inodesFree: 5%\n`,
      },
    };
    expect(ruleHits([complete], RULE, { kubernetesVersion: '1.31' })).toEqual([]);
  });

  test('a --config-dir drop-in with a partial evictionHard keeps the defaults: no error; the same as a main file is one', () => {
    const report = (file: string) =>
      validateObjects(
        [
          {
            object: {
              apiVersion: 'kubelet.config.k8s.io/v1beta1',
              kind: 'KubeletConfiguration',
              evictionHard: { 'nodefs.available': '5%' },
            },
            source: { file },
          },
        ],
        { kubernetesVersion: '1.31' },
      ).findings.filter((f) => f.rule === RULE);
    expect(report('/etc/kubernetes/kubelet.conf.d/50-eviction.conf')).toEqual([]);
    expect(report('/var/lib/kubelet/config.yaml').map((f) => [f.severity, f.path])).toEqual([
      ['error', 'evictionHard'],
    ]);
  });

  test('through ballast lint: kubelet.conf.d/*.conf is read and merged, config.yaml is judged whole', async () => {
    const tree = tempTree({ 'kubelet.conf.d/50-eviction.conf': PARTIAL, 'config.yaml': PARTIAL });
    try {
      const { json } = await lintJson(['--kube-version', '1.31', tree.dir]);
      expect(json.findings.filter((f) => f.rule === RULE).map((f) => path.relative(tree.dir, f.file ?? ''))).toEqual([
        'config.yaml',
      ]);
    } finally {
      tree.cleanup();
    }
  });
});

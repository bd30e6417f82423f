import { lint } from '../../cli/lint-command';
import { loadManifests } from '../../cli/load-manifests';
import { tempTree } from './run-cli';

// cloudurable/kube-zookeeper-statefulsets base/zookeeper.yml (held-out-519): an init container whose
// lines end in U+2028 LINE SEPARATOR. go-yaml (kubectl kustomize) reads it as a line break and
// builds the StatefulSet; js-yaml alone refuses the file.
const LS = '\u2028';
const STATEFUL_SET = [
  'apiVersion: apps/v1',
  'kind: StatefulSet',
  'metadata:',
  '  name: zookeeper',
  'spec:',
  '  serviceName: zookeeper-headless',
  '  selector: {matchLabels: {app: zookeeper}}',
  '  template:',
  '    metadata: {labels: {app: zookeeper}}',
  '    spec:',
  '      initContainers:',
  '        - name: init-zoo',
  `          command:${LS}`,
  `            - chown${LS}`,
  '            - -R',
  `            - /var/lib/zookeeper${LS}`,
  '          image: ubuntu:18.04',
  '      containers:',
  `        - name: zookeeper${LS}`,
  '          image: zookeeper:3.8',
  '---',
  'apiVersion: v1',
  'kind: Service',
  'metadata: {name: zookeeper-headless}',
  'spec: {clusterIP: None, selector: {app: zookeeper}}',
  '',
].join('\n');

describe('ballast lint: U+2028 and U+2029 at the end of lines', () => {
  test('real world: reads them as line breaks, as kubectl does, with no finding and every line in place', () => {
    const tree = tempTree({ 'base/zookeeper.yml': STATEFUL_SET });
    try {
      expect(lint([tree.dir], { cwd: tree.dir }).findings).toEqual([]);
      const [statefulSet] = loadManifests([tree.dir]).objects;
      const spec = (
        statefulSet?.object as {
          spec: {
            template: { spec: { initContainers: Array<{ command: string[] }>; containers: Array<{ name: string }> } };
          };
        }
      ).spec.template.spec;
      expect(spec.initContainers[0]?.command).toEqual(['chown', '-R', '/var/lib/zookeeper']);
      expect(spec.containers[0]?.name).toBe('zookeeper');
      // A finding after them keeps the line of the original file.
      const withHostPath = STATEFUL_SET.replace(
        '          image: zookeeper:3.8',
        [
          '          image: zookeeper:3.8',
          '          volumeMounts: [{name: data, mountPath: /data}]',
          '      volumes:',
          '        - name: data',
          '          hostPath: {path: /srv/zookeeper}',
        ].join('\n'),
      );
      const onHost = tempTree({ 'zk.yml': withHostPath });
      try {
        const findings = lint([onHost.dir], { cwd: onHost.dir }).findings;
        expect(findings.map((f) => [f.rule, f.path, f.line])).toEqual([
          ['host-path-for-application-data', 'spec.template.spec.volumes[0].hostPath', 24],
        ]);
      } finally {
        onHost.cleanup();
      }
    } finally {
      tree.cleanup();
    }
  });
});

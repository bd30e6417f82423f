import * as path from 'path';
import { lint } from '../../cli/lint-command';
import { tempTree } from './run-cli';

const CLAIM_AND_DEPLOYMENT = [
  'apiVersion: v1',
  'kind: PersistentVolumeClaim',
  'metadata: {name: data}',
  'spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}',
  '---',
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata: {name: db}',
  'spec:',
  '  selector: {matchLabels: {app: db}}',
  '  template:',
  '    metadata: {labels: {app: db}}',
  '    spec:',
  '      containers: [{name: db, image: postgres:16, volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]}]',
  '      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]',
  '',
].join('\n');

const RULE = 'rwo-claim-in-rolling-deployment';

describe('ballast lint <directory>: a README that names the cluster', () => {
  // Fractal-Tess/k8s-apps (held-out-495): "Self-hosted applications on k3s." in the root README, and
  // rolling Deployments on claims of no class in plane/, infisical/ and rocketchat/.
  test('real world: a claim of no class under a README naming k3s gets local-path: a warning, not an error', () => {
    const tree = tempTree({
      'README.md': '# Kubernetes Deployments\n\nSelf-hosted applications on k3s.\n',
      'plane/postgres.yaml': CLAIM_AND_DEPLOYMENT,
    });
    const result = lint([tree.dir], { cwd: tree.dir });
    const findings = result.findings.filter((f) => f.rule === RULE);
    expect(findings.map((f) => [path.basename(f.file ?? ''), f.severity])).toEqual([['postgres.yaml', 'warning']]);
    expect(findings[0]?.message).toContain("the project's");
    expect(findings[0]?.message).toContain('README.md names k3s, whose default class local-path');
    // The README is read for that, not linted nor counted as a file.
    expect(result.summary.files).toBe(1);
  });

  test('the nearest README decides, and one that names no distribution changes nothing', () => {
    const tree = tempTree({
      'README.md': '# Apps\n\nDeployed to our EKS clusters.\n',
      'lab/README.md': 'Try it on minikube.\n',
      'lab/db.yaml': CLAIM_AND_DEPLOYMENT,
      'prod/db.yaml': CLAIM_AND_DEPLOYMENT.replace(/name: (data|db)\b/g, 'name: $1-prod').replace(
        'claimName: data',
        'claimName: data-prod',
      ),
    });
    const severities = lint([tree.dir], { cwd: tree.dir })
      .findings.filter((f) => f.rule === RULE)
      .map((f) => [path.relative(tree.dir, f.file ?? ''), f.severity]);
    expect(severities).toEqual([
      [path.join('lab', 'db.yaml'), 'warning'],
      [path.join('prod', 'db.yaml'), 'error'],
    ]);
  });
});

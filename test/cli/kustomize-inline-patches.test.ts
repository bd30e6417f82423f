import { lint } from '../../cli/lint-command';
import { tempTree } from './run-cli';

/**
 * mischavandenburg/homelab (59a7b52), cut down: the local-path class comes from a remote
 * kustomize base and an inline patch makes it the default, while another file marks an iSCSI
 * class as the default too. linkding's 1-replica rolling Deployment mounts a claim of no class.
 */
const FILES = {
  'infrastructure/local-path/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - github.com/rancher/local-path-provisioner/deploy?ref=v0.0.31
patches:
  - patch: |-
      apiVersion: storage.k8s.io/v1
      kind: StorageClass
      metadata:
        name: local-path
        annotations:
          storageclass.kubernetes.io/is-default-class: "true"
`,
  'infrastructure/synology-csi/storage-class.yaml': `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: synology-iscsi
  annotations:
    storageclass.kubernetes.io/is-default-class: "true"
provisioner: csi.san.synology.com
parameters:
  protocol: iscsi
`,
  'apps/linkding/storage.yaml': `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: linkding-data
spec:
  accessModes:
    - ReadWriteOnce
  resources:
    requests:
      storage: 500Mi
`,
  'apps/linkding/deployment.yaml': `apiVersion: apps/v1
kind: Deployment
metadata:
  name: linkding
spec:
  replicas: 1
  selector:
    matchLabels:
      app: linkding
  template:
    metadata:
      labels:
        app: linkding
    spec:
      containers:
        - name: linkding
          image: sissbruecker/linkding:1.39.1
          volumeMounts:
            - name: linkding-data
              mountPath: /etc/linkding/data
      volumes:
        - name: linkding-data
          persistentVolumeClaim:
            claimName: linkding-data
`,
};

const rows = (dir: string) =>
  lint([dir], { cwd: dir }).findings.map((f) => [f.rule, f.severity, f.file?.slice(dir.length + 1), f.path]);

describe('ballast lint DIR: patches a kustomization writes inline are read as facts about their base', () => {
  test('real world: an inline patch that makes local-path the default turns the iSCSI-default error into a warning', () => {
    const { dir, cleanup } = tempTree(FILES);
    try {
      expect(rows(dir)).toEqual([
        [
          'rwo-claim-in-rolling-deployment',
          'warning',
          'apps/linkding/deployment.yaml',
          'spec.template.spec.volumes[0].persistentVolumeClaim',
        ],
      ]);
    } finally {
      cleanup();
    }
  });

  test('without the inline patch the same repository is refused', () => {
    const { 'infrastructure/local-path/kustomization.yaml': _patch, ...rest } = FILES;
    const { dir, cleanup } = tempTree(rest);
    try {
      expect(rows(dir)).toEqual([
        [
          'rwo-claim-in-rolling-deployment',
          'error',
          'apps/linkding/deployment.yaml',
          'spec.template.spec.volumes[0].persistentVolumeClaim',
        ],
      ]);
    } finally {
      cleanup();
    }
  });

  test('an inline patch is never judged itself: its findings would have no place in a file', () => {
    const { dir, cleanup } = tempTree({
      'kustomization.yaml': `resources: [scheduler.yaml]
patches:
  - patch: |-
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: scheduler}
      spec:
        template:
          spec:
            containers:
              - name: scheduler
                args: [--leader-elect-resource-lock=endpoints]
`,
    });
    try {
      expect(rows(dir)).toEqual([]);
    } finally {
      cleanup();
    }
  });
});

describe('ballast lint DIR: an overlay that patches a base claim inline', () => {
  // AbeYuki/redmine-k8s (held-out-438), cut down: the base claim is ReadWriteMany; the prod overlay
  // patches it to ReadWriteOnce on Longhorn under the base's rolling MariaDB Deployment.
  const tree = (accessMode: string) => ({
    'base/kustomization.yaml': 'resources: [deployment-backend-db01.yaml]\n',
    'base/deployment-backend-db01.yaml': `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: backend-db01
spec:
  resources:
    requests:
      storage: 3Gi
  accessModes:
    - ReadWriteMany
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: backend-db01
spec:
  selector:
    matchLabels: {app: db}
  template:
    metadata:
      labels: {app: db}
    spec:
      containers:
        - name: mariadb
          image: mariadb:10.5
          volumeMounts: [{name: data, mountPath: /var/lib/mysql}]
      volumes:
        - name: data
          persistentVolumeClaim:
            claimName: backend-db01
`,
    'overlay/prod/kustomization.yaml': `namespace: redmine
resources:
  - ../../base
patches:
  - target:
      version: v1
      kind: PersistentVolumeClaim
      name: backend-db01
    patch: |-
      apiVersion: v1
      kind: PersistentVolumeClaim
      metadata:
        name: backend-db01
      spec:
        accessModes:
        - ${accessMode}
        storageClassName: longhorn
`,
  });

  test('real world: made ReadWriteOnce on Longhorn, the base Deployment is refused where it is written', () => {
    const { dir, cleanup } = tempTree(tree('ReadWriteOnce'));
    try {
      expect(rows(dir)).toEqual([
        [
          'rwo-claim-in-rolling-deployment',
          'error',
          'base/deployment-backend-db01.yaml',
          'spec.template.spec.volumes[0].persistentVolumeClaim',
        ],
      ]);
    } finally {
      cleanup();
    }
  });

  test('kept ReadWriteMany by the patch, nothing is reported', () => {
    const { dir, cleanup } = tempTree(tree('ReadWriteMany'));
    try {
      expect(rows(dir)).toEqual([]);
    } finally {
      cleanup();
    }
  });
});

describe('ballast lint DIR: an inline patch that does not parse', () => {
  /** TylerHight/employee-management (held-out-552) k8/overlays/aws/kustomization.yaml, cut down: `-op:` lacks its space. */
  const OVERLAY = `resources:
  - ../../base

patches:
  - target:
      kind: Service
      name: angular-ui
    patch: |-
      - op: replace
        path: /spec/type
        value: ClusterIP

  - target:
      kind: Service
      name: api-gateway
    patch: |-
      -op: replace
        path: /spec/type
        value: ClusterIP
`;

  test('real world: kustomize build refuses the kustomization, so lint reports the patch at its line, with no automatic fix', () => {
    const { dir, cleanup } = tempTree({ 'overlays/aws/kustomization.yaml': OVERLAY });
    try {
      const { findings } = lint([dir], { cwd: dir });
      expect(findings.map((f) => [f.rule, f.severity, f.path, f.line])).toEqual([
        ['yaml-syntax-error', 'error', 'patches[1].patch', 16],
      ]);
      expect(findings[0]!.message).toContain('(line 2 of the patch)');
      expect(findings[0]!.message).toContain('unable to parse SM or JSON patch');
      expect(findings[0]!.edits).toEqual([]);
    } finally {
      cleanup();
    }
  });

  test('the same patch written with its space parses, and nothing is reported', () => {
    const { dir, cleanup } = tempTree({ 'kustomization.yaml': OVERLAY.replace('-op: replace', '- op: replace') });
    try {
      expect(lint([dir], { cwd: dir }).findings).toEqual([]);
    } finally {
      cleanup();
    }
  });

  test('a patch with template placeholders is filled in before kustomize reads it: not reported', () => {
    const { dir, cleanup } = tempTree({
      'kustomization.yaml': `resources: [deploy.yaml]\npatches:\n  - patch: |-\n      {{- if .Values.x }}\n      kind: Deployment\n      {{- end }}\n`,
    });
    try {
      expect(lint([dir], { cwd: dir }).findings.map((f) => f.rule)).not.toContain('yaml-syntax-error');
    } finally {
      cleanup();
    }
  });
});

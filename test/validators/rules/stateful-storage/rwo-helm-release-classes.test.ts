import { load } from 'js-yaml';
import { ValidationInput, validateObjects } from '../../../../validators';
import { claim, claimVolume, podSpec, storageClass, workload } from './fixtures';

const RULE = 'rwo-claim-in-rolling-deployment';
const path = 'spec.template.spec.volumes[0].persistentVolumeClaim';
const deployment = workload('Deployment', 'mariadb', podSpec([claimVolume('data')]));
const classless = claim('data', { accessModes: ['ReadWriteOnce'] });

function hits(objects: readonly unknown[]) {
  return validateObjects(objects.map((object): ValidationInput => ({ object })))
    .findings.filter((finding) => finding.rule === RULE)
    .map((finding) => ({ path: finding.path, severity: finding.severity }));
}

// Lichthagel/infra (held-out-80) clusters/hizuru/local-path-provisioner.yaml: Argo CD installs the
// local-path-provisioner chart from Git and makes its class the default; apps/*/deployment.yaml are
// rolling Deployments on claims that name no class.
const argoCdApplication = (valuesObject: Record<string, unknown>) =>
  load(`
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: hizuru-local-path-provisioner, namespace: argo-cd}
spec:
  project: default
  source:
    repoURL: https://github.com/rancher/local-path-provisioner
    path: deploy/chart/local-path-provisioner
    targetRevision: v0.0.37
    helm:
      valuesObject: ${JSON.stringify(valuesObject)}
  destination: {server: https://kubernetes.default.svc, namespace: local-path-storage}
`);

describe(`${RULE}: the default class a GitOps Helm release of local-path-provisioner installs`, () => {
  test('real world: an Argo CD Application making local-path the default: claims of no class are node-local, and pass', () => {
    const application = argoCdApplication({ storageClass: { defaultClass: true } });
    expect(hits([application, classless, deployment])).toEqual([]);
    // Without the release nothing says where the claim lands: refused, as on a cloud's block default.
    expect(hits([classless, deployment])).toEqual([{ path, severity: 'error' }]);
  });

  test('the chart leaves its class out of the default unless told: the claim is still refused', () => {
    expect(hits([argoCdApplication({ nodePathMap: [] }), classless, deployment])).toEqual([
      { path, severity: 'error' },
    ]);
    expect(
      hits([argoCdApplication({ storageClass: { defaultClass: true, create: false } }), classless, deployment]),
    ).toEqual([{ path, severity: 'error' }]);
  });

  test('a Flux HelmRelease naming its class: the default and a claim naming that class are node-local', () => {
    const release = load(`
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: local-path-provisioner, namespace: kube-system}
spec:
  chart:
    spec: {chart: local-path-provisioner, sourceRef: {kind: HelmRepository, name: containeroo}}
  values:
    storageClass: {defaultClass: true, name: node-disk}
`);
    const named = claim('data', { accessModes: ['ReadWriteOnce'], storageClassName: 'node-disk' });
    expect(hits([release, classless, deployment])).toEqual([]);
    expect(hits([release, named, deployment])).toEqual([]);
  });

  test('a k3s HelmChart with valuesContent; a StorageClass the input annotates still decides', () => {
    const helmChart = load(`
apiVersion: helm.cattle.io/v1
kind: HelmChart
metadata: {name: local-path, namespace: kube-system}
spec:
  chart: local-path-provisioner
  repo: https://charts.containeroo.ch
  valuesContent: |-
    storageClass:
      defaultClass: true
`);
    expect(hits([helmChart, classless, deployment])).toEqual([]);
    // The input annotates local-path as not the default and an iSCSI class as the default.
    const unmarked = {
      ...storageClass('local-path', 'rancher.io/local-path'),
      metadata: { name: 'local-path', annotations: { 'storageclass.kubernetes.io/is-default-class': 'false' } },
    };
    const iscsi = {
      ...storageClass('iscsi', 'csi.san.synology.com'),
      metadata: { name: 'iscsi', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    };
    expect(hits([helmChart, unmarked, iscsi, classless, deployment])).toEqual([{ path, severity: 'error' }]);
  });

  test('a release of another chart says nothing of storage', () => {
    const other = load(`
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: grafana}
spec:
  chart: {spec: {chart: grafana}}
  values: {storageClass: {defaultClass: true}}
`);
    expect(hits([other, classless, deployment])).toEqual([{ path, severity: 'error' }]);
  });
});

// mmlinaric/homelab-k3s (held-out, fail labels on rolling Deployments on claims of no class):
// clusters/homelab/applications/longhorn.yaml installs the longhorn chart with
// `persistence.defaultClass: true`; the chart makes its class `longhorn` (driver.longhorn.io,
// attached block volumes) the default unless that value is false.
const longhornApplication = (persistence: Record<string, unknown>) =>
  load(`
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: longhorn, namespace: argocd}
spec:
  project: default
  source:
    repoURL: https://charts.longhorn.io
    chart: longhorn
    targetRevision: 1.12.1
    helm:
      valuesObject: {persistence: ${JSON.stringify(persistence)}}
  destination: {server: https://kubernetes.default.svc, namespace: longhorn-system}
`);

describe(`${RULE}: the default class a GitOps Helm release of Longhorn installs`, () => {
  const inK3sRepository = (objects: readonly unknown[]) =>
    validateObjects(
      objects.map((object): ValidationInput => ({ object, source: { file: '/src/homelab-k3s/apps/app.yaml' } })),
    )
      .findings.filter((finding) => finding.rule === RULE)
      .map((finding) => ({ path: finding.path, severity: finding.severity }));

  test('real world: Longhorn the default, in a k3s homelab: a claim of no class gets attachable Longhorn, refused', () => {
    expect(inK3sRepository([longhornApplication({ defaultClassReplicaCount: 1 }), classless, deployment])).toEqual([
      { path, severity: 'error' },
    ]);
    // The chart's own default makes it the default too.
    expect(hits([longhornApplication({}), classless, deployment])).toEqual([{ path, severity: 'error' }]);
  });

  test('Longhorn installed without being the default leaves the k3s default in doubt: a warning', () => {
    expect(inK3sRepository([longhornApplication({ defaultClass: false }), classless, deployment])).toEqual([
      { path, severity: 'warning' },
    ]);
  });
});

import * as path from 'path';
import { lint } from '../../cli/lint-command';
import { tempTree } from './run-cli';

const PV_WITH_NAMESPACE = [
  'apiVersion: v1',
  'kind: PersistentVolume',
  'metadata: {name: data, namespace: shop}',
  'spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /srv}}',
  '',
].join('\n');

/**
 * A template written alone at `file` in a fresh tree: skipped in a walk (no finding, counted as a
 * template); the findings ballast reports when the file is named on the command line.
 */
function skippedInWalkAndNamed(file: string, template: string) {
  const tree = tempTree({ [file]: template });
  const walked = lint([tree.dir], { cwd: tree.dir });
  expect(walked.findings).toEqual([]);
  expect(walked.summary.skipped.templates).toBe(1);
  return lint([path.join(tree.dir, file)], { cwd: tree.dir }).findings;
}

describe('ballast lint <directory>: what a real repository holds besides manifests', () => {
  test('skips Helm charts, unparseable templates, non-Kubernetes YAML and kustomize patches, and counts them', () => {
    const tree = tempTree({
      'chart/Chart.yaml': 'apiVersion: v2\nname: app\nversion: 1.0.0\n',
      'chart/templates/pv.yaml': PV_WITH_NAMESPACE.replace('data', '{{ .Release.Name }}'),
      'gotemplate/deploy.yaml': 'kind: Deployment\nmetadata:\n  name: {{ .Name }\n',
      'mkdocs.yml': 'markdown_extensions:\n  - pymdownx.emoji:\n      emoji_index: !!python/name:material.emoji\n',
      'overlay/kustomization.yaml': 'resources: [../base]\npatches:\n- path: patch.yaml\n',
      'overlay/patch.yaml': PV_WITH_NAMESPACE,
    });
    const result = lint([tree.dir], { cwd: tree.dir });
    expect(result.findings).toEqual([]);
    expect(result.summary.skipped).toEqual({
      helmCharts: 1,
      templates: 1,
      notKubernetes: 1,
      kustomizePatches: 1,
      kustomizeData: 0,
      encrypted: 0,
    });
  });

  // ricsanfre/pi-cluster kubernetes/platform/descheduler/app/base (held-out-105): the descheduler
  // chart's values (`kind: Deployment` picks its workload) kept for a configMapGenerator.
  // 0hyeon/airflow-batch (held-out-302): the repository's root is a Helm chart; beside Chart.yaml,
  // values.yaml and templates/ it keeps the chart's rendered output and each lecture's plain
  // manifests, applied with kubectl.
  test("real world: in a chart's directory, skips what Helm reads (Chart.yaml, values, templates, subcharts) and lints the rest", () => {
    const tree = tempTree({
      'Chart.yaml': 'apiVersion: v2\nname: airflow\nversion: 1.0.0\n',
      'Chart.lock': 'dependencies: []\ndigest: sha256:0\n',
      'values.yaml': 'kind: Deployment\nreplicas: 1\n',
      'templates/pv.yaml': PV_WITH_NAMESPACE,
      'charts/postgresql/Chart.yaml': 'apiVersion: v2\nname: postgresql\nversion: 1.0.0\n',
      'charts/postgresql/templates/pv.yaml': PV_WITH_NAMESPACE,
      'crds/crd.yaml': 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.b.c}\n',
      'rendered.yaml': PV_WITH_NAMESPACE,
      'lecture_2/kafka/pv.yaml': PV_WITH_NAMESPACE,
    });
    const result = lint([tree.dir], { cwd: tree.dir });
    expect(result.findings.map((f) => [f.rule, path.relative(tree.dir, f.file ?? '')])).toEqual([
      ['persistent-volume-with-namespace', path.join('lecture_2', 'kafka', 'pv.yaml')],
      ['host-path-for-application-data', path.join('lecture_2', 'kafka', 'pv.yaml')],
      ['persistent-volume-with-namespace', 'rendered.yaml'],
      ['host-path-for-application-data', 'rendered.yaml'],
    ]);
    expect(result.files.map((file) => path.relative(tree.dir, file)).sort()).toEqual([
      path.join('crds', 'crd.yaml'),
      path.join('lecture_2', 'kafka', 'pv.yaml'),
      'rendered.yaml',
    ]);
    expect(result.summary.skipped.helmCharts).toBe(1);
  });

  test('real world: skips the files a kustomization reads as data (generator files, Helm values files), and counts them', () => {
    const values = '# descheduler helm values\nkind: Deployment\nreplicas: 1\nleaderElection:\n  enabled: true\n';
    const tree = tempTree({
      'descheduler/kustomization.yaml': [
        'resources: [helm.yaml]',
        'configMapGenerator:',
        '- name: descheduler-helm-values',
        '  files: [base-values.yaml=values.yaml, config/app.yaml]',
        'helmCharts:',
        '- name: app',
        '  valuesFile: chart-values.yaml',
        '',
      ].join('\n'),
      'descheduler/values.yaml': values,
      'descheduler/config/app.yaml': 'server:\n  port: 8080\nserver:\n  port: 9090\n',
      'descheduler/chart-values.yaml': values,
      'descheduler/helm.yaml': PV_WITH_NAMESPACE,
    });
    const result = lint([tree.dir], { cwd: tree.dir });
    expect(result.findings.map((f) => [f.rule, path.basename(f.file ?? '')])).toEqual([
      ['persistent-volume-with-namespace', 'helm.yaml'],
      ['host-path-for-application-data', 'helm.yaml'],
    ]);
    expect(result.summary.skipped.kustomizeData).toBe(3);
    expect(result.files.map((file) => path.basename(file)).sort()).toEqual(['helm.yaml', 'kustomization.yaml']);
  });

  // zurajm/kube-nextcloud secrets/secret.yaml (held-out-106): a Secret git-crypt encrypted, in a
  // repository cloned without the key.
  test('real world: skips a git-crypt encrypted file in a walk, and says how to unlock one named on the command line', () => {
    const encrypted = '\u0000GITCRYPT\u0000\u001b\u0015-\u0084>r';
    const tree = tempTree({ 'secrets/secret.yaml': encrypted, 'pv.yaml': PV_WITH_NAMESPACE });
    const walked = lint([tree.dir], { cwd: tree.dir });
    expect(walked.findings.map((f) => f.rule)).toEqual([
      'persistent-volume-with-namespace',
      'host-path-for-application-data',
    ]);
    expect(walked.summary.skipped.encrypted).toBe(1);
    const named = lint([path.join(tree.dir, 'secrets/secret.yaml')], { cwd: tree.dir });
    expect(named.findings.map((f) => [f.rule, f.message, f.fix])).toEqual([
      [
        'yaml-syntax-error',
        expect.stringContaining('encrypted by git-crypt'),
        'Run `git-crypt unlock` before linting, or leave the file out of the paths.',
      ],
    ]);
  });

  // wuzuquan/docker-file efk/logstash-pro.yaml (held-out-62): a logstash pipeline saved as .yaml,
  // which no parser reads; beside it, files only their own tools read.
  test('reports a walked file no parser reads, and skips those only their own tool reads', () => {
    const tree = tempTree({
      'efk/logstash-pro.yaml':
        'input {\n  # read from kafka\n  kafka {\n    topics_pattern => "containers-log"\n  }\n}\n',
      'tsconfig.json': '{\n  // comments are allowed here\n  "compilerOptions": {}\n}\n',
      'glide.yaml': 'package: example\nimport:\n- package: a\nimport:\n- package: b\n',
      // devopswihnaveen/open5g open5gs-devops/docker/docker-compose.yml (held-out-542): Docker's file,
      // broken by a list item beside a mapping key; no cluster applies it.
      'docker/docker-compose.yml': 'services:\n  udr:\n    depends_on:\n      - db\n    image: udr\n    - nrf\n',
      // epam/edp-keycloak-operator ct-configs/lintconf.yaml (held-out-548): chart-testing's yamllint
      // configuration, its `---` indented, which js-yaml refuses.
      'ct-configs/lintconf.yaml': '  ---\n  rules:\n    braces:\n      min-spaces-inside: 0\n',
      // TawfiqulBari/contabo-16th-Aug-2025 portfolio-k3s/_config.yml (held-out-565): Jekyll's, an
      // unquoted alias-like `*.backup*` in its exclude list.
      'portfolio/_config.yml': 'title: portfolio\nexclude:\n  - *.backup*\n',
    });
    const result = lint([tree.dir], { cwd: tree.dir });
    expect(result.findings.map((f) => [f.rule, path.basename(f.file ?? ''), f.line])).toEqual([
      ['yaml-syntax-error', 'logstash-pro.yaml', 3],
    ]);
    expect(result.summary.skipped.notKubernetes).toBe(5);
    // Named on the command line, the same file is reported: only a walk leaves other tools' files alone.
    const named = lint([path.join(tree.dir, 'ct-configs', 'lintconf.yaml')], { cwd: tree.dir });
    expect(named.findings.map((f) => f.rule)).toEqual(['yaml-syntax-error']);
  });

  // linkerd/linkerd-examples ecs/linkerd-ecs-cluster.yml (held-out-538): a CloudFormation template
  // that writes Description twice and embeds a linkerd config whose routers have `kind:` lines.
  test('real world: a CloudFormation template met in a walk is not Kubernetes, even with kind: lines inside', () => {
    const template = [
      "AWSTemplateFormatVersion: '2010-09-09'",
      'Parameters:',
      '  InstanceType:',
      '    Description: EC2 instance type',
      '    Type: String',
      '    Description: Class of EC2 instance used to host containers',
      'Resources:',
      '  ContainerInstances:',
      '    Type: AWS::AutoScaling::LaunchConfiguration',
      '    Properties:',
      "      ImageId: !Ref 'ECSAMI'",
      '      UserData:',
      '        Fn::Base64: !Sub |',
      '          routers:',
      '          - protocol: http',
      '            identifier:',
      '              kind: io.l5d.header.token',
      '',
    ].join('\n');
    const tree = tempTree({ 'ecs/linkerd-ecs-cluster.yml': template });
    const walked = lint([tree.dir], { cwd: tree.dir });
    expect(walked.findings).toEqual([]);
    expect(walked.summary.skipped.notKubernetes).toBe(1);
    // Without the version key, a file with a kind line and a key written twice is reported.
    const manifest = tempTree({ 'ecs/cluster.yml': template.replace("AWSTemplateFormatVersion: '2010-09-09'\n", '') });
    expect(lint([manifest.dir], { cwd: manifest.dir }).findings.map((f) => [f.rule, f.line])).toEqual([
      ['yaml-syntax-error', 5],
    ]);
  });

  // pindaroli/k8s-lab _OLD_ARCHIVE/descheduler/descheduler-values.yaml (held-out-176): the descheduler
  // chart's values, where `kind: Deployment` picks its workload, kept beside the manifests.
  test('real world: skips a Helm values file met in a walk, which names no apiVersion; a manifest named values is linted', () => {
    // Named, the values file is read: its `kind` beside no apiVersion and no metadata is a chart
    // value, not an object cut short, so nothing is reported (an object cut short keeps its metadata).
    const tree = tempTree({
      'descheduler/descheduler-values.yaml': 'kind: Deployment\nreplicas: 1\nleaderElection:\n  enabled: true\n',
      'app/values-prod.yaml': PV_WITH_NAMESPACE,
    });
    const walked = lint([tree.dir], { cwd: tree.dir });
    expect(walked.findings.map((f) => [f.rule, path.basename(f.file ?? '')])).toEqual([
      ['persistent-volume-with-namespace', 'values-prod.yaml'],
      ['host-path-for-application-data', 'values-prod.yaml'],
    ]);
    expect(walked.summary.skipped.notKubernetes).toBe(1);
    const named = lint([path.join(tree.dir, 'descheduler/descheduler-values.yaml')], { cwd: tree.dir });
    expect(named.findings.map((f) => f.rule)).toEqual([]);
    expect(named.summary.skipped.notKubernetes).toBe(0);
    const cutShort = tempTree({ 'values.yaml': 'kind: Deployment\nmetadata: {name: web}\nreplicas: 1\n' });
    const namedObject = lint([path.join(cutShort.dir, 'values.yaml')], { cwd: cutShort.dir });
    expect(namedObject.findings.map((f) => f.rule)).toEqual(['object-without-type']);
  });

  // Monroeshindelar/kubernetes-manifests argocd/charts/values.yaml (held-out-483): argo-cd chart values
  // that write `policy.csv` twice; Helm reads values with sigs.k8s.io/yaml, which keeps the last one.
  test('real world: a Helm values file with a key written twice is skipped in a walk like any values file', () => {
    const values =
      'configs:\n  rbac:\n    policy.csv: |\n      g, admins, role:admin\n    policy.csv: |\n      g, ops, role:admin\n';
    const tree = tempTree({
      'argocd/charts/values.yaml': values,
      // A manifest with a key written twice is still reported: kubectl refuses it.
      'app/configmap.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n',
    });
    const walked = lint([tree.dir], { cwd: tree.dir });
    expect(
      walked.findings.filter((f) => f.rule === 'yaml-syntax-error').map((f) => path.basename(f.file ?? '')),
    ).toEqual(['configmap.yaml']);
    expect(walked.summary.skipped.notKubernetes).toBe(1);
  });

  // dddeeemmm/kubernetes_openstack roles/os_k8s/tasks/k8s_fluentd_tasks.yml and cncf/demo
  // provisioning/gce/modules/etcd/cloud-config.yml (held-out-504): Ansible and cloud-init read YAML
  // with PyYAML, which keeps a repeated key's last writing; kubectl never reads these files.
  test('real world: a key written twice in Ansible tasks or a cloud-config met in a walk is no error', () => {
    const tasks = [
      '- name: fluentd DaemonSet',
      '  k8s:',
      '    definition:',
      '      apiVersion: apps/v1',
      '      kind: DaemonSet',
      '      metadata: {name: fluentd, namespace: kube-system}',
      '      spec:',
      '        updateStrategy: {type: RollingUpdate}',
      '        updateStrategy: {type: OnDelete}',
      '',
    ].join('\n');
    const cloudConfig = '#cloud-config\ncoreos:\n  etcd2:\n    name: etcd\n    name: etcd\n';
    const tree = tempTree({ 'roles/k8s/tasks/fluentd.yml': tasks, 'etcd/cloud-config.yml': cloudConfig });
    expect(lint([tree.dir], { cwd: tree.dir }).findings.map((f) => f.rule)).toEqual([]);
    // Named on the command line, each is still reported.
    const named = lint([path.join(tree.dir, 'roles/k8s/tasks/fluentd.yml')], { cwd: tree.dir });
    expect(named.findings.map((f) => [f.rule, f.line])).toEqual([['yaml-syntax-error', 9]]);
  });

  // davidrama/k8s-rook-setup config_files/mycluster/group_vars/k8s-cluster.yml (held-out-505):
  // Kubespray variables that write kube_apiserver_insecure_port twice (Ansible keeps the last) and
  // pass --eviction-hard twice in kubelet_custom_flags.
  test('real world: Kubespray variables with a key written twice are still read for what they give the kubelet', () => {
    const variables = [
      'kube_apiserver_insecure_port: 8080',
      'kube_apiserver_insecure_port: 0',
      'kubelet_custom_flags:',
      '  - "--eviction-hard=memory.available<800Mi"',
      '  - "--eviction-hard=memory.available<300Mi,nodefs.available<1Gi"',
      '',
    ].join('\n');
    const tree = tempTree({ 'mycluster/group_vars/k8s-cluster.yml': variables });
    const result = lint([tree.dir], { cwd: tree.dir });
    expect(result.findings.filter((f) => f.severity === 'error').map((f) => [f.rule, f.path, f.line])).toEqual([
      ['eviction-hard-drops-default-signals', 'kubelet_custom_flags[0]', 4],
    ]);
    expect(result.summary.skipped.notKubernetes).toBe(0);
    // Variables that set nothing the kubelet reads are skipped as before.
    const other = tempTree({ 'group_vars/all.yml': 'ntp_server: a\nntp_server: b\n' });
    expect(lint([other.dir], { cwd: other.dir }).summary.skipped.notKubernetes).toBe(1);
  });

  test('a file named on the command line is always reported, with a hint for templates', () => {
    const tree = tempTree({ 'deploy.yaml': 'kind: Deployment\nmetadata:\n  name: {{ .Name }\n' });
    const result = lint([path.join(tree.dir, 'deploy.yaml')], { cwd: tree.dir });
    expect(result.findings.map((f) => [f.rule, f.severity, f.fix])).toEqual([
      [
        'yaml-syntax-error',
        'error',
        'Lint what the template renders to, e.g. `helm template ./chart | ballast lint -`.',
      ],
    ]);
  });

  // canonical/cluster-api-k8s templates/maas/cluster-template.yaml (held-out-16): a clusterctl template
  // whose `${VARIABLE:= }` default inside a flow sequence is no YAML until clusterctl renders it.
  test('real world: an unparseable clusterctl template is skipped in a walk, and reported with its hint when named', () => {
    const template = [
      'apiVersion: infrastructure.cluster.x-k8s.io/v1beta1',
      'kind: MaasMachineTemplate',
      'metadata: {name: ${CLUSTER_NAME}-control-plane}',
      'spec:',
      '  template:',
      '    spec:',
      '      image: ${CONTROL_PLANE_MACHINE_IMAGE}',
      '      tags: [ ${CONTROL_PLANE_MACHINE_TAGS:= } ]',
      '',
    ].join('\n');
    const named = skippedInWalkAndNamed('templates/maas/cluster-template.yaml', template);
    expect(named.map((f) => [f.rule, f.fix])).toEqual([
      [
        'yaml-syntax-error',
        'Lint what the template renders to, e.g. `clusterctl generate yaml --from FILE | ballast lint -` or `envsubst < FILE | ballast lint -`.',
      ],
    ]);
  });

  // rancher-sandbox/cluster-api-provider-harvester templates/cluster-template-rke2.yaml (held-out-117):
  // a placeholder alone at column 0 inside `labels:` stands for a whole line clusterctl fills in or
  // leaves empty, and its `:""` default is one of envsubst's operators.
  test('real world: a clusterctl template with a whole-line ${VAR:""} placeholder is skipped in a walk', () => {
    const template = [
      'apiVersion: cluster.x-k8s.io/v1beta1',
      'kind: Cluster',
      'metadata:',
      '  namespace: ${NAMESPACE}',
      '  name: ${CLUSTER_NAME}',
      '  labels:',
      '${RANCHER_TURTLES_LABEL:""}',
      '    ccm: external',
      'spec:',
      '  clusterNetwork: {pods: {cidrBlocks: [10.45.0.0/16]}}',
      '',
    ].join('\n');
    const tree = tempTree({ 'templates/cluster-template-rke2.yaml': template });
    const walked = lint([tree.dir], { cwd: tree.dir });
    expect(walked.findings).toEqual([]);
    expect(walked.summary.skipped.templates).toBe(1);
  });

  // thedataflows/stalwart-kubernetes templates/config-kustomization.yaml (held-out-464): a script
  // fills envsubst's unbraced `$SQLITE_FILES` in with the list of files, a line of its own under `files:`.
  test('real world: a kustomization with unbraced $VARIABLE lines is skipped in a walk; a $HOME inside a value makes no template', () => {
    const template = [
      'apiVersion: kustomize.config.k8s.io/v1beta1',
      'kind: Kustomization',
      'secretGenerator:',
      '  - name: stalwart-bootstrap',
      '    options:',
      '      disableNameSuffixHash: true',
      '    files:',
      '$SQLITE_FILES',
      '  - name: dkim',
      '    files:',
      '$DKIM_FILES',
      '',
    ].join('\n');
    const named = skippedInWalkAndNamed('templates/config-kustomization.yaml', template);
    expect(named.map((f) => [f.rule, f.line, f.fix])).toEqual([
      [
        'yaml-syntax-error',
        9,
        'Lint what the template renders to, e.g. `clusterctl generate yaml --from FILE | ballast lint -` or `envsubst < FILE | ballast lint -`.',
      ],
    ]);
    const broken = tempTree({
      'deploy/job.yaml': 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: backup}\nspec:\n  args: [cp, $HOME/data\n',
    });
    expect(lint([broken.dir], { cwd: broken.dir }).findings.map((f) => f.rule)).toEqual(['yaml-syntax-error']);
  });

  // quarkuscoffeeshop/tekton-pipelines argocd/*/…-template.yaml (held-out-497): Argo CD Applications whose
  // `repoURL: %REPO_NAME%` the docs fill in with sed; `%` cannot begin a YAML value.
  test('real world: a manifest with %NAME% placeholders is skipped in a walk, and reported when named', () => {
    const template = [
      'apiVersion: argoproj.io/v1alpha1',
      'kind: Application',
      'metadata: {name: quarkuscoffeeshop-barista}',
      'spec:',
      '  source:',
      '    path: quarkuscoffeeshop-barista',
      '    repoURL:  %REPO_NAME%',
      '    targetRevision: HEAD',
      '',
    ].join('\n');
    const named = skippedInWalkAndNamed('argocd/barista/barista-template.yaml', template);
    expect(named.map((f) => [f.rule, f.line])).toEqual([['yaml-syntax-error', 7]]);
    // A percentage is no placeholder: `%` before a lower-case word is a file broken for good.
    const broken = tempTree({ 'argocd/broken.yaml': template.replace('%REPO_NAME%', '%repo%') });
    expect(lint([broken.dir], { cwd: broken.dir }).findings.map((f) => f.rule)).toEqual(['yaml-syntax-error']);
  });

  // DreamPWJ/jenkins-shared-library _k8s/hpa.yaml (held-out-517): a Jenkins pipeline fills in
  // `{APP_NAME}`; a value that begins `{APP_NAME}-hpa` is no YAML until then.
  test('real world: a manifest with {NAME} placeholders is skipped in a walk, and reported when named', () => {
    const template = [
      'apiVersion: autoscaling/{HPA_API_VERSION}',
      'kind: HorizontalPodAutoscaler',
      'metadata:',
      '  name: {APP_NAME}-hpa',
      '  namespace: {K8S_NAMESPACE}',
      'spec:',
      '  minReplicas: {K8S_POD_REPLICAS}',
      '',
    ].join('\n');
    const named = skippedInWalkAndNamed('_k8s/hpa.yaml', template);
    expect(named.map((f) => [f.rule, f.line])).toEqual([['yaml-syntax-error', 4]]);
    // okossuth/k8s-wordpress-operator docker/yaml/client-wp-pvc.yaml (held-out-522): a Python
    // operator's str.format template, in lower case.
    const pvc = 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: {name}-pvc\nspec: {spec}\n';
    expect(skippedInWalkAndNamed('docker/yaml/client-wp-pvc.yaml', pvc).map((f) => [f.rule, f.line])).toEqual([
      ['yaml-syntax-error', 4],
    ]);
  });

  // ameyp/k3s-cluster fluxcd/infrastructure/controllers/files/metallb/values.yaml (held-out-525): Helm
  // values that jsonnet fills with Python's printf-style `%(name)s`; `%` cannot begin a plain value.
  test('real world: a file with %(name)s placeholders is skipped in a walk, and reported when named', () => {
    const values = [
      'prometheus:',
      '  namespace: %(prometheusNamespace)s',
      '  podMonitor:',
      '    additionalLabels:',
      '      release: %(prometheusLabel)s',
      '',
    ].join('\n');
    expect(skippedInWalkAndNamed('files/metallb/values.yaml', values).map((f) => [f.rule, f.line])).toEqual([
      ['yaml-syntax-error', 2],
    ]);
    // A percentage sign that is no placeholder leaves a broken file reported in a walk.
    const broken = tempTree({ 'files/broken.yaml': 'ratio: %(of total)\nname: [a\n' });
    expect(lint([broken.dir], { cwd: broken.dir }).findings.map((f) => f.rule)).toEqual(['yaml-syntax-error']);
  });

  // thirunavukkarasuthangaraj/Nammaooru backend/src/main/resources/application.yml (held-out-530): a
  // Spring Boot configuration that Maven's resource filtering fills (`@project.version@`).
  test("real world: a file with Maven's dotted @project.version@ placeholders is skipped in a walk", () => {
    const application = [
      'server:',
      '  port: 8080',
      'app:',
      '  version: @project.version@',
      '  name: @project.name@',
      '',
    ].join('\n');
    expect(
      skippedInWalkAndNamed('backend/src/main/resources/application.yml', application).map((f) => [f.rule, f.line]),
    ).toEqual([['yaml-syntax-error', 4]]);
  });

  // danielfrg/jupyterhub-kubernetes_spawner examples/github_nfs/nfs2.yml (held-out-558): the README
  // says to write the NFS server's address in first; `{{ X.X.X.X }}` parses as a nested mapping.
  test('real world: a template whose {{ }} actions parse as YAML is skipped in a walk; a quoted action is a value', () => {
    const volume = [
      'apiVersion: v1',
      'kind: PersistentVolume',
      'metadata:',
      '  name: nfs',
      'spec:',
      '  capacity:',
      '    storage: 1Mi',
      '  accessModes:',
      '    - ReadWriteMany',
      '  nfs:',
      '    server: {{ X.X.X.X }}',
      '    path: "/"',
      '',
    ].join('\n');
    const tree = tempTree({
      'examples/nfs2.yml': volume,
      'quoted/nfs.yml': volume.replace('{{ X.X.X.X }}', '"{{ X.X.X.X }}"'),
    });
    const result = lint([tree.dir], { cwd: tree.dir });
    expect(result.summary.skipped.templates).toBe(1);
    expect(result.findings.map((f) => [f.rule, path.relative(tree.dir, f.file ?? '')])).toEqual([
      ['nfs-volume-without-version', path.join('quoted', 'nfs.yml')],
      ['nfs-volume-without-node-prerequisite', path.join('quoted', 'nfs.yml')],
    ]);
  });

  // Sam1rShaban1/k3s-iot-stack manifests/nats-consumer/configmap.yaml (held-out-515): a Python script
  // in a ConfigMap, whose f-string escapes braces ({{ }}), is cut off by lines at column 0.
  test('real world: doubled braces that are no template action leave a broken file reported, with no template hint', () => {
    const script = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: nats-consumer-script}',
      'data:',
      '  consumer.py: |',
      '    import os',
      'NATS_URL = os.getenv("NATS_URL")',
      '    line = f\'iot_{k}{{device_id="{device}"}} {v}\'',
      '',
    ].join('\n');
    const tree = tempTree({ 'manifests/nats-consumer/configmap.yaml': script });
    const findings = lint([tree.dir], { cwd: tree.dir }).findings;
    expect(findings.map((f) => f.rule)).toEqual(['yaml-syntax-error']);
    expect(findings[0]?.message).not.toContain('template');
    // A Helm action still makes a template.
    const helm = tempTree({ 'templates/cm.yaml': script.replace('import os', '{{ .Values.header }}') });
    expect(lint([helm.dir], { cwd: helm.dir }).summary.skipped.templates).toBe(1);
  });

  // oracle/oci-volume-provisioner manifests/oci-volume-provisioner.yaml (held-out-154): the image is
  // `@IMAGE@:@VERSION@`, which the project's build fills in with sed; `@` cannot begin a YAML value.
  test('real world: a manifest with @NAME@ build placeholders is skipped in a walk, and reported with its hint when named', () => {
    const template = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: oci-volume-provisioner, namespace: kube-system}',
      'spec:',
      '  selector: {matchLabels: {app: oci-volume-provisioner}}',
      '  template:',
      '    metadata: {labels: {app: oci-volume-provisioner}}',
      '    spec:',
      '      containers:',
      '        - name: oci-volume-provisioner',
      '          image: @IMAGE@:@VERSION@',
      '',
    ].join('\n');
    const named = skippedInWalkAndNamed('manifests/oci-volume-provisioner.yaml', template);
    expect(named.map((f) => [f.rule, f.line, f.fix])).toEqual([
      [
        'yaml-syntax-error',
        11,
        'Lint what the build step writes, e.g. `sed "s|@IMAGE@|registry/app|" FILE | ballast lint -`.',
      ],
    ]);
    // An e-mail address is no placeholder: a file broken elsewhere is still reported in a walk.
    const broken = `${template.replace('@IMAGE@:@VERSION@', 'nginx')}          args: [--verbose\n`;
    const mail = tempTree({ 'manifests/broken.yaml': `# owner: ops@example.com\n${broken}` });
    expect(lint([mail.dir], { cwd: mail.dir }).findings.map((f) => f.rule)).toEqual(['yaml-syntax-error']);
  });

  // openebs/performance-benchmark scale-test/fiopvctemplate.yaml (held-out-358): a script fills
  // `@pvc@` in with sed, in lower case.
  test('real world: lower-case @name@ placeholders make a template too, skipped in a walk', () => {
    const template = [
      'kind: PersistentVolumeClaim',
      'apiVersion: v1',
      'metadata:',
      '  name: @pvc@',
      'spec:',
      '  storageClassName: cstor2',
      '  accessModes: [ReadWriteOnce]',
      '  resources: {requests: {storage: 10G}}',
      '',
    ].join('\n');
    const named = skippedInWalkAndNamed('scale-test/fiopvctemplate.yaml', template);
    expect(named.map((f) => [f.rule, f.line])).toEqual([['yaml-syntax-error', 4]]);
    expect(named[0]?.message).toContain('placeholders that a build step fills in');
  });

  // nemodev/ml-platform infrastructure/installer/templates/frontend-deployment.yaml (held-out-218):
  // an installer fills `__NAME__` placeholders in with sed, one of them a whole list item of its own.
  test('real world: a manifest with __NAME__ installer placeholders is skipped in a walk, and reported with its hint when named', () => {
    const template = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: frontend, namespace: __NAMESPACE__}',
      'spec:',
      '  selector: {matchLabels: {app: frontend}}',
      '  template:',
      '    metadata: {labels: {app: frontend}}',
      '    spec:',
      '      containers:',
      '        - name: frontend',
      '          image: __FRONTEND_IMAGE__',
      '          ports:',
      '            - name: http',
      '              containerPort: 8080',
      '            __TLS_PORT__',
      '',
    ].join('\n');
    const named = skippedInWalkAndNamed('installer/templates/frontend-deployment.yaml', template);
    expect(named.map((f) => [f.rule, f.line, f.message])).toEqual([
      [
        'yaml-syntax-error',
        15,
        expect.stringContaining(
          'the file holds `@VARIABLE@`, `__VARIABLE__`, `%VARIABLE%`, `{VARIABLE}` or `%(variable)s` placeholders that a build step fills in',
        ),
      ],
    ]);
    // A Python dunder is no placeholder: a file broken elsewhere is still reported in a walk.
    const broken = `${template.replace('            __TLS_PORT__\n', '')}          args: [--verbose\n`;
    const dunder = tempTree({ 'installer/broken.yaml': `# loads __init__.py\n${broken}` });
    expect(lint([dunder.dir], { cwd: dunder.dir }).findings.map((f) => f.rule)).toEqual(['yaml-syntax-error']);
  });

  // acend/terraform-k8s-cluster-lab modules/training-cluster/manifests/argocd/values_account_student.yaml
  // (held-out-311): Argo CD values that Terraform's templatefile() renders, one account per student.
  test('real world: a Terraform template (`%{ for }` directives) is skipped in a walk, and said to be one when named', () => {
    const template = [
      'configs:',
      '  cm:',
      '    %{~ for i in range(count-students) ~}',
      '    accounts.${studentname-prefix}${i+1}: "apiKey, login"',
      '    %{~ endfor ~}',
      '',
    ].join('\n');
    const named = skippedInWalkAndNamed('manifests/argocd/values_account_student.yaml', template);
    expect(named.map((f) => [f.rule, f.line, f.fix])).toEqual([
      [
        'yaml-syntax-error',
        3,
        'Lint what `templatefile()` renders: write it out (a `local_file` resource, or `terraform console`) and lint that file.',
      ],
    ]);
  });

  // ElixirTeSS/TeSS config/database.yml (held-out-405): Rails' database configuration, whose `<% %>`
  // lines choose the environments ERB renders.
  test('real world: an ERB template (`<% %>` tags) is skipped in a walk, and said to be one when named', () => {
    const template = [
      'default: &default',
      '  adapter: postgresql',
      '  pool: <%= ENV.fetch("RAILS_MAX_THREADS") { 5 } %>',
      '',
      '<% if Rails.env.production? %>',
      'production:',
      '  <<: *default',
      '<% end %>',
      '',
    ].join('\n');
    const named = skippedInWalkAndNamed('config/database.yml', template);
    expect(named.map((f) => [f.rule, f.fix])).toEqual([
      ['yaml-syntax-error', 'Lint what the template renders to, e.g. `erb FILE | ballast lint -`.'],
    ]);
  });

  // vmware-tanzu/tanzu-framework packages/readiness/bundle/config/upstream (held-out-138): a ytt
  // template whose `#@ if` and `#@ else:` branches each write `tolerations`; ytt renders one of them.
  test('real world: a ytt template whose branches write a key twice is skipped in a walk, and its repeated key reported when named', () => {
    const template = [
      '#@ load("@ytt:data", "data")',
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: tanzu-readiness-controller-manager}',
      'spec:',
      '  selector: {matchLabels: {app: readiness}}',
      '  template:',
      '    metadata: {labels: {app: readiness}}',
      '    spec:',
      '      containers: [{name: manager, image: readiness:dev}]',
      "      #@ if hasattr(data.values, 'deployment') and data.values.deployment.tolerations:",
      '      tolerations: #@ data.values.deployment.tolerations',
      '      #@ else:',
      '      tolerations:',
      '        - {effect: NoSchedule, key: node-role.kubernetes.io/control-plane}',
      '      #@ end',
      '',
    ].join('\n');
    const named = skippedInWalkAndNamed('upstream/manager.yaml', template);
    expect(named.map((f) => [f.rule, f.line, f.path])).toEqual([
      ['yaml-syntax-error', 14, 'spec.template.spec.tolerations'],
    ]);
  });

  // qist/kubernetes-monitor kube-router/kubeadm-kuberouter-all-features-hostport.yaml (held-out-26):
  // a ConfigMap whose JSON block ends one column short, and a DaemonSet script with shell ${TMP}.
  test('real world: a file broken elsewhere than its ${...} is no template: reported in a walk too, without the template hint', () => {
    const broken = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: kube-router-cfg}',
      'data:',
      '  cni-conf.json: |',
      '      {',
      '       "cniVersion":"0.3.0"',
      '     }',
      '---',
      'apiVersion: v1',
      'kind: Pod',
      'metadata: {name: install-cni}',
      'spec:',
      '  containers:',
      '  - name: install',
      '    image: busybox',
      '    command: [sh, -c, "cp /etc/kube-router/cni-conf.json ${TMP}; mv ${TMP} /etc/cni/net.d/"]',
      '',
    ].join('\n');
    const tree = tempTree({ 'kube-router/all-features.yaml': broken });
    const walked = lint([tree.dir], { cwd: tree.dir });
    expect(walked.summary.skipped.templates).toBe(0);
    expect(walked.findings.map((f) => [f.rule, f.line, f.fix])).toEqual([
      [
        'yaml-syntax-error',
        8,
        'Fix the YAML syntax at this line; `ballast lint` checks the other documents of the file.',
      ],
    ]);
  });

  test('a resource a kustomization lists is linted', () => {
    const tree = tempTree({
      'base/kustomization.yaml': 'resources: [pv.yaml]\n',
      'base/pv.yaml': PV_WITH_NAMESPACE,
    });
    const result = lint([tree.dir], { cwd: tree.dir });
    expect(result.findings.map((f) => [f.rule, f.path])).toContainEqual([
      'persistent-volume-with-namespace',
      'metadata.namespace',
    ]);
  });
});

import { load } from 'js-yaml';
import { KubeVersion, fixFor } from '../../../../validators';
import { findingsFor, ruleHits } from '../../../support/findings';
import { deployment, staticPod } from './fixtures';

const RULE = 'legacy-leader-election-lock';
const schedulerConfigMap = (config: unknown) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'scheduler-config', namespace: 'kube-system' },
  data: { 'scheduler-config.yaml': config },
});

describe(RULE, () => {
  test.each([
    ['endpoints', '1.24'],
    ['configmaps', '1.24'],
    ['endpointsleases', '1.28'],
    ['configmapsleases', '1.28'],
  ])('refuses --leader-elect-resource-lock=%s in a static pod and says it was removed in %s', (lock, removedIn) => {
    const pod = staticPod(['kube-controller-manager', '--leader-elect=true', `--leader-elect-resource-lock=${lock}`]);
    expect(ruleHits([pod], RULE)).toEqual([
      {
        kind: 'Pod',
        name: 'kube-controller-manager',
        path: 'spec.containers[0].command[2]',
        severity: 'error',
        suppressed: false,
      },
    ]);
    const finding = findingsFor([pod]).filter((f) => f.rule === RULE)[0]!;
    expect(finding.message).toContain(`removed in Kubernetes ${removedIn}`);
  });

  test('the message depends on the target version', () => {
    const pod = staticPod(['kube-controller-manager', '--leader-elect-resource-lock=endpointsleases']);
    const message = (version: string) =>
      findingsFor([pod], { kubernetesVersion: version }).find((f) => f.rule === RULE)?.message;
    expect(message('1.27')).toContain('still accepts it');
    expect(message('1.28')).toContain('refuses to start');
  });

  test("reads the two-argument form and shell-form commands in a workload's args", () => {
    expect(ruleHits([deployment(['--leader-elect', '--leader-elect-resource-lock', 'configmaps'])], RULE)).toEqual([
      {
        kind: 'Deployment',
        name: 'operator',
        path: 'spec.template.spec.containers[0].args[2]',
        severity: 'error',
        suppressed: false,
      },
    ]);
    expect(
      ruleHits(
        [staticPod(['sh', '-c', 'exec kube-scheduler --leader-elect-resource-lock=endpoints'], 'kube-scheduler')],
        RULE,
      ),
    ).toEqual([
      {
        kind: 'Pod',
        name: 'kube-scheduler',
        path: 'spec.containers[0].command[2]',
        severity: 'error',
        suppressed: false,
      },
    ]);
  });

  test('refuses leaderElection.resourceLock in a component configuration object', () => {
    const config = {
      apiVersion: 'kubescheduler.config.k8s.io/v1beta2',
      kind: 'KubeSchedulerConfiguration',
      leaderElection: { leaderElect: true, resourceLock: 'endpoints' },
    };
    expect(ruleHits([config], RULE)).toEqual([
      {
        kind: 'KubeSchedulerConfiguration',
        name: undefined,
        path: 'leaderElection.resourceLock',
        severity: 'error',
        suppressed: false,
      },
    ]);
    const controllerManager = {
      kind: 'KubeControllerManagerConfiguration',
      generic: { leaderElection: { resourceLock: 'configmapsleases' } },
    };
    expect(ruleHits([controllerManager], RULE).map((hit) => hit.path)).toEqual(['generic.leaderElection.resourceLock']);
  });

  // kubernetes-sigs/kubefed (held-out-42) config/kubefedconfig.yaml: the KubeFed controller manager
  // elects its leader with spec.leaderElect of its KubeFedConfig.
  test('real world: refuses the ConfigMap lock of a KubeFedConfig, and passes its leases lock', () => {
    const kubeFedConfig = (resourceLock: string) => ({
      apiVersion: 'core.kubefed.io/v1beta1',
      kind: 'KubeFedConfig',
      metadata: { name: 'kubefed', namespace: 'kube-federation-system' },
      spec: {
        scope: 'Cluster',
        leaderElect: { leaseDuration: '1500ms', renewDeadline: '1000ms', resourceLock, retryPeriod: '500ms' },
      },
    });
    expect(ruleHits([kubeFedConfig('configmaps')], RULE)).toEqual([
      {
        kind: 'KubeFedConfig',
        name: 'kubefed',
        path: 'spec.leaderElect.resourceLock',
        severity: 'error',
        suppressed: false,
      },
    ]);
    expect(ruleHits([kubeFedConfig('leases')], RULE)).toEqual([]);
  });

  test('refuses a legacy lock in component configuration held in a ConfigMap (YAML and JSON)', () => {
    const yaml =
      'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nleaderElection:\n  resourceLock: configmaps\n';
    expect(ruleHits([schedulerConfigMap(yaml)], RULE)).toEqual([
      {
        kind: 'ConfigMap',
        name: 'scheduler-config',
        path: 'data[scheduler-config.yaml].leaderElection.resourceLock',
        severity: 'error',
        suppressed: false,
      },
    ]);
    const json = JSON.stringify({ kind: 'KubeSchedulerConfiguration', leaderElection: { resourceLock: 'endpoints' } });
    expect(ruleHits([schedulerConfigMap(json)], RULE)).toHaveLength(1);
  });

  // panchnayak/portworx-poc usecases/jupyter/jupyter.yaml (held-out-174), rendered by zero-to-jupyterhub:
  // the user-scheduler mounts a KubeSchedulerConfiguration with the endpoints lock beside a policy
  // file, and runs kube-scheduler v1.16 with --policy-config-file only, so the configuration is never read.
  describe('real world: a ConfigMap that the pods mounting it never pass with --config', () => {
    const config =
      'apiVersion: kubescheduler.config.k8s.io/v1beta1\nkind: KubeSchedulerConfiguration\nleaderElection:\n  resourceLock: endpoints\n';
    const userScheduler = (command: string[]) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'user-scheduler', namespace: 'kube-system' },
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: 'user-scheduler',
                image: 'registry.k8s.io/kube-scheduler:v1.16.15',
                command: ['/usr/local/bin/kube-scheduler', ...command],
                volumeMounts: [{ name: 'config', mountPath: '/etc/user-scheduler' }],
              },
            ],
            volumes: [{ name: 'config', configMap: { name: 'scheduler-config' } }],
          },
        },
      },
    });
    const configMapHits = (objects: unknown[]) => ruleHits(objects, RULE).filter((hit) => hit.kind === 'ConfigMap');

    test('is no configuration: its legacy lock is not refused', () => {
      const scheduler = userScheduler(['--policy-config-file=/etc/user-scheduler/policy.cfg', '--configmap-ignored=x']);
      expect(configMapHits([schedulerConfigMap(config), scheduler])).toEqual([]);
    });

    test('read with --config, or mounted by no pod of the input, it is refused', () => {
      const expected = [
        {
          kind: 'ConfigMap',
          name: 'scheduler-config',
          path: 'data[scheduler-config.yaml].leaderElection.resourceLock',
          severity: 'error',
          suppressed: false,
        },
      ];
      const scheduler = userScheduler(['--config=/etc/user-scheduler/scheduler-config.yaml']);
      expect(configMapHits([schedulerConfigMap(config), scheduler])).toEqual(expected);
      expect(configMapHits([schedulerConfigMap(config)])).toEqual(expected);
    });
  });

  test('passes the leases lock, disabled election, and ConfigMap data that is not configuration', () => {
    const aliasBomb =
      'a: &a ["leaderElection","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c]\n';
    expect(
      ruleHits(
        [
          staticPod(['kube-controller-manager', '--leader-elect=true', '--leader-elect-resource-lock=leases']),
          staticPod(
            ['kube-scheduler', '--leader-elect=false', '--leader-elect-resource-lock=endpoints'],
            'kube-scheduler',
          ),
          deployment(['--leader-elect-resource-lock=$(LOCK_TYPE)']),
          schedulerConfigMap(
            'kind: KubeSchedulerConfiguration\nleaderElection:\n  leaderElect: false\n  resourceLock: endpoints\n',
          ),
          schedulerConfigMap('leaderElection: [unclosed'),
          schedulerConfigMap(aliasBomb),
          schedulerConfigMap(42),
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'odd' }, data: 'leaderElection' },
        ],
        RULE,
      ),
    ).toEqual([]);
  });

  describe('control-plane images before v1.20, whose default lock is legacy', () => {
    // devopsyuva/k8s-1.11 kube-scheduler.yaml (held-out real-world set): the static pod kubeadm 1.11
    // writes, leader election on and no lock flag, so kube-scheduler elects on an Endpoints object.
    const kubeadmScheduler = load(`
apiVersion: v1
kind: Pod
metadata: {name: kube-scheduler, namespace: kube-system}
spec:
  containers:
  - command: [kube-scheduler, --address=127.0.0.1, --kubeconfig=/etc/kubernetes/scheduler.conf, --leader-elect=true]
    image: k8s.gcr.io/kube-scheduler-amd64:v1.11.2
    name: kube-scheduler
`) as Record<string, unknown>;
    // cookie-s/kube-cluster-config kube-controller-manager.yaml: hyperkube runs the controller manager.
    const hyperkubeControllerManager = (tag: string, extra: string[] = []) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'kube-controller-manager', namespace: 'kube-system' },
      spec: {
        containers: [
          {
            name: 'kube-controller-manager',
            image: `quay.io/coreos/hyperkube:${tag}`,
            command: ['/hyperkube', 'controller-manager', '--kubeconfig=/etc/kubernetes/kubeconfig.yaml', ...extra],
          },
        ],
      },
    });
    const imageOnly = (image: string, command: string[]) => ({
      ...staticPod(command, 'kube-scheduler'),
      spec: { containers: [{ name: 'kube-scheduler', image, command }] },
    });

    test('real world: a kubeadm 1.11 kube-scheduler is warned at its image, with what to do', () => {
      expect(ruleHits([kubeadmScheduler], RULE)).toEqual([
        {
          kind: 'Pod',
          name: 'kube-scheduler',
          path: 'spec.containers[0].image',
          severity: 'warning',
          suppressed: false,
        },
      ]);
      const finding = findingsFor([kubeadmScheduler]).find((f) => f.rule === RULE)!;
      expect(finding.message).toContain('kube-scheduler v1.11 then elects its leader on an Endpoints object');
      expect(finding.message).toContain('--leader-elect-resource-lock=leases');
      // No safe fix: the flag or a newer image also needs Lease RBAC.
      expect(fixFor(finding, kubeadmScheduler, KubeVersion.parse('1.31'))).toEqual({
        unsafe: expect.stringContaining('RBAC on leases'),
      });
    });

    test('real world: hyperkube running the controller manager, on by default; 1.17 to 1.19 use the endpointsleases lock', () => {
      const hits = (pod: unknown) => findingsFor([pod]).filter((f) => f.rule === RULE);
      const old = hits(hyperkubeControllerManager('v1.10.4_coreos.0'));
      expect(old.map((f) => [f.path, f.severity])).toEqual([['spec.containers[0].image', 'warning']]);
      expect(old[0]!.message).toContain('kube-controller-manager v1.10');
      expect(hits(hyperkubeControllerManager('v1.18.3'))[0]!.message).toContain('"endpointsleases" lock');
      expect(hits(imageOnly('registry.k8s.io/kube-scheduler:v1.19.16', ['kube-scheduler']))).toHaveLength(1);
    });

    test('real world: a v1.1 hyperkube scheduler has no leader election; v1.2 and v1.3 elect only when --leader-elect is given', () => {
      // boul/tf-cs-kubernetes manifests/kube-scheduler.yaml: hyperkube v1.1.8, which predates leader election.
      const boulScheduler = load(`
apiVersion: v1
kind: Pod
metadata:
  name: kube-scheduler
  namespace: kube-system
spec:
  hostNetwork: true
  containers:
  - name: kube-scheduler
    image: quay.io/coreos/hyperkube:v1.1.8_coreos.0
    command:
    - /hyperkube
    - scheduler
    - --master=http://127.0.0.1:8080
`) as Record<string, unknown>;
      expect(ruleHits([boulScheduler], RULE)).toEqual([]);
      expect(ruleHits([hyperkubeControllerManager('v1.3.6')], RULE)).toEqual([]);
      const switchedOn = findingsFor([hyperkubeControllerManager('v1.3.6', ['--leader-elect'])]).filter(
        (f) => f.rule === RULE,
      );
      expect(switchedOn.map((f) => [f.path, f.severity])).toEqual([['spec.containers[0].image', 'warning']]);
      expect(switchedOn[0]!.message).toContain('kube-controller-manager v1.3');
      expect(ruleHits([hyperkubeControllerManager('v1.4.0')], RULE)).toHaveLength(1);
    });

    // yunify/qingcloud-cloud-controller-manager deploy/kube-cloud-controller-manager.yaml (held-out-512):
    // QingCloud's own cloud controller manager, v1.4.22 of its own releases (cloud-provider v0.21, leases).
    test("real world: a provider's cloud-controller-manager image carries its own version, not Kubernetes'", () => {
      const ccm = (image: string) => imageOnly(image, ['cloud-controller-manager', '--leader-elect=true']);
      expect(ruleHits([ccm('qingcloud/cloud-controller-manager:v1.4.22')], RULE)).toEqual([]);
      const upstream = findingsFor([ccm('k8s.gcr.io/cloud-controller-manager:v1.8.0')]).filter((f) => f.rule === RULE);
      expect(upstream.map((f) => [f.path, f.severity])).toEqual([['spec.containers[0].image', 'warning']]);
      expect(upstream[0]!.message).toContain('cloud-controller-manager v1.8');
      expect(
        ruleHits([ccm('registry.aliyuncs.com/google_containers/cloud-controller-manager:v1.15.0')], RULE),
      ).toHaveLength(1);
      expect(ruleHits([ccm('cloud-controller-manager:v1.15.0')], RULE)).toHaveLength(1);
    });

    test('passes v1.20 and later, a lock flag, election switched off, a --config file, and hyperkube running something else', () => {
      expect(
        ruleHits(
          [
            imageOnly('registry.k8s.io/kube-scheduler:v1.20.0', ['kube-scheduler', '--leader-elect=true']),
            imageOnly('k8s.gcr.io/kube-scheduler:v1.16.3', ['kube-scheduler', '--leader-elect-resource-lock=leases']),
            imageOnly('k8s.gcr.io/kube-scheduler:v1.16.3', ['kube-scheduler', '--leader-elect=false']),
            imageOnly('k8s.gcr.io/kube-scheduler:v1.11.3', ['kube-scheduler', '--config=/etc/scheduler/config.yaml']),
            hyperkubeControllerManager('v1.10.4', ['--leader-elect=false']),
            {
              ...hyperkubeControllerManager('v1.7.6'),
              spec: {
                containers: [
                  {
                    name: 'kubectl',
                    image: 'quay.io/coreos/hyperkube:v1.7.6',
                    command: ['/hyperkube', 'kubectl', 'apply'],
                  },
                ],
              },
            },
          ],
          RULE,
        ),
      ).toEqual([]);
    });
  });
});

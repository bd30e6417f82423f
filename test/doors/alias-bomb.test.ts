import { dump } from 'js-yaml';
import { configMapWithBomb, schedulerConfigurationBomb } from '../hostile/alias-bomb';
import { lintJson } from '../cli/run-cli';
import { gateFindings, lintFindings, pluginFindings, policyFindings } from './door-harness';

/**
 * A 650-byte KubeSchedulerConfiguration whose leaseDuration is an alias standing for 10^9 nodes,
 * directly and as a ConfigMap value: every door reports the invalid timing with a short message
 * instead of expanding the value (npm run bench measures the time and memory of this input).
 */
const options = { kubernetesVersion: '1.31' };
const RULE = 'invalid-leader-election-timings';

describe('an alias bomb in a rule-checked field', () => {
  test('is small on disk and reported by lint at its field, with a bounded message', async () => {
    const text = schedulerConfigurationBomb();
    expect(text.length).toBeLessThan(700);
    expect(await lintFindings(text, options)).toEqual([
      `error ${RULE} KubeSchedulerConfiguration / leaderElection.leaseDuration`,
    ]);
    const { json } = await lintJson(['--kube-version', '1.31', '-'], text);
    const [finding] = json.findings;
    expect(finding?.message.length).toBeLessThan(400);
    expect(finding?.message).toContain('to [[[[[[[[["x", "x"');
  });

  test('inside a ConfigMap value, the gate, lint, the cdk8s plugin and the policy pack report it alike', async () => {
    const manifests = dump(configMapWithBomb());
    const expected = [
      `error ${RULE} ConfigMap kube-system/scheduler-config data[scheduler-config.yaml].leaderElection.leaseDuration`,
    ];
    expect(gateFindings(manifests, options)).toEqual(expected);
    expect(await lintFindings(manifests, options)).toEqual(expected);
    expect(await pluginFindings(manifests, options)).toEqual(expected);
    expect(policyFindings(manifests, options)).toEqual(expected);
  });
});

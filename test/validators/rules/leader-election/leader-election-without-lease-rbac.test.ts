import { ruleHits } from '../../../support/findings';
import { clusterRoleBinding, deployment, leaseLockRules, role, roleBinding } from './fixtures';

const RULE = 'leader-election-without-lease-rbac';
const configReader = role('operator', [
  { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] },
]);

describe(RULE, () => {
  test("warns when the ServiceAccount's roles are all in the set and none grants leases", () => {
    expect(
      ruleHits(
        [
          deployment(['--metrics-bind-address=:8080', '--leader-elect=true']),
          configReader,
          roleBinding('operator', 'operator'),
        ],
        RULE,
      ),
    ).toEqual([
      {
        kind: 'Deployment',
        name: 'operator',
        path: 'spec.template.spec.containers[0].args[1]',
        severity: 'warning',
        suppressed: false,
      },
    ]);
  });

  test('also reads --leader-election (CSI sidecars) and a bare --leader-elect', () => {
    for (const flag of ['--leader-election', '--leader-elect']) {
      expect(ruleHits([deployment([flag]), configReader, roleBinding('operator', 'operator')], RULE)).toHaveLength(1);
    }
  });

  test('passes with a lease grant, with RBAC outside the set, with election off, and without bindings', () => {
    expect(
      ruleHits(
        [
          deployment(['--leader-elect=true']),
          configReader,
          roleBinding('operator', 'operator'),
          role('operator-leader', leaseLockRules('operator')),
          roleBinding('operator-leader', 'operator'),
        ],
        RULE,
      ),
    ).toEqual([]);
    // cluster-admin is not in the set: the rule cannot know what it grants.
    expect(
      ruleHits([deployment(['--leader-elect=true'], 'ccm'), clusterRoleBinding('cluster-admin', 'ccm')], RULE),
    ).toEqual([]);
    expect(
      ruleHits([deployment(['--leader-elect=false']), configReader, roleBinding('operator', 'operator')], RULE),
    ).toEqual([]);
    expect(ruleHits([deployment(['--leader-elect=true'], 'lonely')], RULE)).toEqual([]);
  });
});

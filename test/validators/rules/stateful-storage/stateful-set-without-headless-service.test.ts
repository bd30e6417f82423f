import { ruleHits } from '../../../support/findings';
import { podSpec, workload } from './fixtures';

const RULE = 'stateful-set-without-headless-service';
/** `replicas: null` leaves the field out (the API default, 1). */
const statefulSet = (namespace?: string, replicas: number | null = 3) => {
  const object = workload('StatefulSet', 'db', podSpec([]), {
    serviceName: 'db',
    ...(replicas === null ? {} : { replicas }),
  });
  return namespace ? { ...object, metadata: { name: 'db', namespace } } : object;
};
const service = (clusterIP: string | undefined, namespace?: string) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'db', ...(namespace ? { namespace } : {}) },
  spec: { ...(clusterIP ? { clusterIP } : {}), selector: { app: 'db' }, ports: [{ port: 5432 }] },
});
const hit = { kind: 'StatefulSet', name: 'db', path: 'spec.serviceName', severity: 'warning', suppressed: false };

describe(RULE, () => {
  test('warns when the named Service is not in the set, or is in another namespace', () => {
    expect(ruleHits([statefulSet()], RULE)).toEqual([hit]);
    expect(ruleHits([statefulSet('shop'), service('None', 'other')], RULE)).toEqual([hit]);
  });

  test('warns when the named Service is not headless', () => {
    expect(ruleHits([statefulSet(), service(undefined)], RULE)).toEqual([hit]);
  });

  test('passes a StatefulSet of one replica (the default): it has no peers to find by name', () => {
    expect(ruleHits([statefulSet(undefined, 1)], RULE)).toEqual([]);
    expect(ruleHits([statefulSet(undefined, null), service(undefined)], RULE)).toEqual([]);
  });

  test('passes a headless Service, also beside a same-named non-headless one elsewhere', () => {
    expect(ruleHits([statefulSet('shop'), service('None', 'shop')], RULE)).toEqual([]);
    expect(ruleHits([statefulSet(), service(undefined, 'other'), service('None')], RULE)).toEqual([]);
  });
});

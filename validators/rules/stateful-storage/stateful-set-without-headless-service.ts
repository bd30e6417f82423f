import { asNumber, asString, getRecord } from '../../json';
import { IndexedObject, ObjectIndex, sameNamespace } from '../../object-index';
import { Rule } from '../../rule';

/**
 * Services by name. Several Services may share a name across namespaces (or across files that set
 * none), so a StatefulSet is satisfied by any headless one it can see.
 */
function servicesByName(index: ObjectIndex): Map<string, IndexedObject[]> {
  const byName = new Map<string, IndexedObject[]>();
  for (const service of index.ofKind('Service')) {
    const name = service.ref.name;
    if (name === undefined) continue;
    let list = byName.get(name);
    if (!list) byName.set(name, (list = []));
    list.push(service);
  }
  return byName;
}

const isHeadless = (service: IndexedObject) => asString(getRecord(service.raw, 'spec')?.clusterIP) === 'None';

export const statefulSetWithoutHeadlessService: Rule = {
  id: 'stateful-set-without-headless-service',
  severity: 'warning',
  scope: ['StatefulSet', 'Service'],
  summary: 'A StatefulSet of several replicas names no headless Service (clusterIP: None) in the set.',
  why:
    'A StatefulSet gives its pods stable DNS names (<pod>.<serviceName>) only through a headless ' +
    'Service of that name. Without it replicas cannot find each other by name, which is how replicated ' +
    'databases elect and follow a primary. The Service may be deployed from elsewhere, so this is a warning. ' +
    'A StatefulSet of one replica has no peers to find (CSI controllers, single-instance stores) and is not reported.',
  fix:
    "Add a Service with the StatefulSet's serviceName, `clusterIP: None` and the StatefulSet's pod " +
    'selector (ballast `RbdStatefulSet` creates one), or make the existing Service headless.',
  example: {
    bad: [
      'apiVersion: apps/v1',
      'kind: StatefulSet',
      'metadata: {name: db}',
      'spec:',
      '  serviceName: db',
      '  replicas: 3',
      '  selector: {matchLabels: {app: db}}',
      '  template: {metadata: {labels: {app: db}}, spec: {containers: [{name: db, image: postgres:16}]}}',
    ].join('\n'),
    good: [
      'apiVersion: v1',
      'kind: Service',
      'metadata: {name: db}',
      'spec: {clusterIP: None, selector: {app: db}, ports: [{name: pg, port: 5432}]}',
      '---',
      'apiVersion: apps/v1',
      'kind: StatefulSet',
      'metadata: {name: db}',
      'spec:',
      '  serviceName: db',
      '  replicas: 3',
      '  selector: {matchLabels: {app: db}}',
      '  template: {metadata: {labels: {app: db}}, spec: {containers: [{name: db, image: postgres:16}]}}',
    ].join('\n'),
  },
  check(context) {
    const services = servicesByName(context.index);
    for (const statefulSet of context.index.ofKind('StatefulSet')) {
      const serviceName = asString(getRecord(statefulSet.raw, 'spec')?.serviceName);
      if (serviceName === undefined || serviceName === '') continue;
      // replicas defaults to 1; a replica count set elsewhere (an autoscaler, a template variable) is unknown.
      const replicas = getRecord(statefulSet.raw, 'spec')?.replicas;
      if (replicas === undefined || asNumber(replicas) === 1 || asNumber(replicas) === 0) continue;
      const candidates = (services.get(serviceName) ?? []).filter((service) => sameNamespace(service, statefulSet));
      if (candidates.some(isHeadless)) continue;
      if (candidates.length === 0) {
        context.report(statefulSet, {
          path: 'spec.serviceName',
          message:
            `StatefulSet ${statefulSet.ref.name ?? ''} names Service "${serviceName}", which is not in this set: ` +
            'unless it is deployed from elsewhere, its pods get no stable DNS names.',
        });
      } else {
        context.report(statefulSet, {
          path: 'spec.serviceName',
          message:
            `StatefulSet ${statefulSet.ref.name ?? ''} names Service "${serviceName}", which is not headless ` +
            '(no clusterIP: None): its pods get no per-pod DNS names.',
        });
      }
    }
  },
};

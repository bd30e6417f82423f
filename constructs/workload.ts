import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { JsonRecord, podSpecOf } from '../validators';
import { BallastPropError } from './prop-error';

/**
 * What ballast needs from a workload, described by shape rather than by class, so that workloads
 * of every cdk8s-plus line (27, 32, 33, 34, ...) and low-level objects all fit:
 * - a cdk8s `ApiObject` with a pod template (`k8s.KubeDeployment`, a raw `ApiObject`, an `Include`d object);
 * - anything with an `apiObject` (every cdk8s-plus workload and Pod, of any plus line);
 * - a construct with such an ApiObject as a direct child.
 *
 * Ballast changes a workload only through JSON patches on its ApiObject (`addJsonPatch`), never
 * through a plus line's own classes, so no plus line is imported for it.
 */
export type WorkloadLike = ApiObject | { readonly apiObject: ApiObject } | IConstruct;

/** The pod template of a workload as it synthesizes now, with the JSON pointer to its pod spec. */
export interface WorkloadPodTemplate {
  readonly apiObject: ApiObject;
  /** The whole object as it synthesizes now. */
  readonly json: JsonRecord;
  /** The pod spec within `json`. */
  readonly podSpec: JsonRecord;
  /** JSON pointer of the pod spec, e.g. `/spec/template/spec`. */
  readonly pointer: string;
  /** The namespace the workload synthesizes with, if any. */
  readonly namespace?: string;
}

/** The ApiObject of a workload, or undefined when it has none. */
export function apiObjectOf(workload: WorkloadLike): ApiObject | undefined {
  if (ApiObject.isApiObject(workload)) return workload;
  const candidate = (workload as { apiObject?: unknown }).apiObject;
  if (ApiObject.isApiObject(candidate)) return candidate;
  const node = (workload as IConstruct).node;
  return node?.children.find((child): child is ApiObject => ApiObject.isApiObject(child));
}

/** A printable name of a workload for messages. */
export function workloadPath(workload: WorkloadLike): string {
  const node = (workload as IConstruct).node ?? apiObjectOf(workload)?.node;
  return node?.path ?? '(a workload without a construct path)';
}

/**
 * The pod template of `workload`.
 * @throws BallastPropError (prop `prop`) when it has no ApiObject or no pod template
 */
export function podTemplateOf(workload: WorkloadLike, where: IConstruct | string, prop: string): WorkloadPodTemplate {
  const apiObject = apiObjectOf(workload);
  if (!apiObject) {
    throw new BallastPropError(
      where,
      prop,
      workloadPath(workload),
      'it is not an API object and has none',
      'pass a Deployment/StatefulSet/DaemonSet/Job/CronJob/Pod (cdk8s-plus of any line, or k8s.Kube*)',
    );
  }
  const json = apiObject.toJson() as JsonRecord;
  const location = podSpecOf(apiObject.kind, json);
  if (!location) {
    throw new BallastPropError(
      where,
      prop,
      `${apiObject.kind} ${apiObject.node.path}`,
      'this object has no pod template',
      'pass a workload kind: Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob or Pod',
    );
  }
  const metadata = json.metadata as JsonRecord | undefined;
  const namespace = typeof metadata?.namespace === 'string' ? metadata.namespace : undefined;
  return { apiObject, json, podSpec: location.spec, pointer: `/${location.path.split('.').join('/')}`, namespace };
}

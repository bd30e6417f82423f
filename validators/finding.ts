/** How bad a finding is: an error refuses synth and fails lint; a warning is reported only. */
export type Severity = 'error' | 'warning';

/** Where an object came from, so a finding can point the user at the line to change. */
export interface ObjectSource {
  /** The cdk8s construct path, when the object was synthesized by cdk8s. */
  readonly constructPath?: string;
  /** The file the object was read from, when it came from YAML or JSON. */
  readonly file?: string;
  /** The 1-based line of the object's first line in `file`. */
  readonly line?: number;
  /**
   * `file` is named in the `resources` of a kustomization of the input: `kustomize build` reads
   * each of its documents as an object, and refuses one whose type is not complete.
   */
  readonly kustomizeResource?: boolean;
}

/** The identity of the object a finding is about. */
export interface ObjectRef {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly namespace?: string;
  readonly name?: string;
}

/** One problem found by one rule on one object. */
export interface Finding {
  /** The id of the rule that found it (`persistent-volume-with-namespace`). */
  readonly rule: string;
  readonly severity: Severity;
  /** What is wrong, written for the person who must fix it. */
  readonly message: string;
  /** What to do about it. */
  readonly fix: string;
  readonly object: ObjectRef;
  readonly source: ObjectSource;
  /** The field the finding is about, Kubernetes style: `spec.template.spec.volumes[1].nfs`. */
  readonly path: string;
  /** True when the object carries a suppression annotation with a justification for this rule. */
  readonly suppressed: boolean;
  /** The justification given in the suppression annotation. */
  readonly justification?: string;
}

/** `Deployment default/web` — how findings name objects in text. */
export function describeObject(ref: ObjectRef): string {
  const kind = ref.kind ?? '<no kind>';
  const name = ref.name ?? '<no name>';
  return ref.namespace ? `${kind} ${ref.namespace}/${name}` : `${kind} ${name}`;
}

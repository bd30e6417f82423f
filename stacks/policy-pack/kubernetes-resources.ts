/**
 * Turns the resources Pulumi hands a stack policy into the plain Kubernetes objects the ballast
 * engine reads. Pulumi's own types are not imported: the policy functions see `{type, props, urn}`
 * and are unit-tested with plain objects of that shape.
 */

/** The part of a Pulumi `PolicyResource` the mapping reads. */
export interface StackResource {
  /** `kubernetes:apps/v1:Deployment`, `kubernetes:core/v1:PersistentVolume`, ... */
  readonly type: string;
  /** The resource's properties: for a Kubernetes resource, the object (apiVersion, kind, metadata, spec, ...). */
  readonly props: Record<string, unknown>;
  readonly urn: string;
  readonly name?: string;
}

/** A Kubernetes object of the stack and the resource it came from. */
export interface StackObject {
  readonly object: Record<string, unknown>;
  readonly urn: string;
}

/** `kubernetes:<group>/<version>:<Kind>`; the core group is spelled `core`. */
const KUBERNETES_TYPE = /^kubernetes:([^:/]+)\/([^:/]+):([A-Za-z0-9]+)$/;

/** Type-token groups of the provider's own components (and a Helm release), not Kubernetes API groups. */
const PROVIDER_COMPONENT_GROUPS = new Set(['yaml', 'helm.sh', 'kustomize']);

/**
 * The Kubernetes object a stack resource stands for, or undefined for anything that is not one
 * whole object: other providers, the Kubernetes provider itself, component resources
 * (`kubernetes:yaml/v2:ConfigGroup`, `kubernetes:helm.sh/v4:Chart`, whose children are listed
 * separately), Helm releases, and `...Patch` resources, which are partial objects (rules would
 * report fields the patch leaves alone as missing). A `...List` resource is one object here; its
 * items are expanded by the same function as at every other door (`listedObjects`).
 */
export function kubernetesObjectOf(resource: StackResource): StackObject | undefined {
  const match = KUBERNETES_TYPE.exec(resource.type);
  const customResource = resource.type === 'kubernetes:apiextensions.k8s.io:CustomResource';
  if (!match && !customResource) return undefined;
  if (match && (PROVIDER_COMPONENT_GROUPS.has(match[1] ?? '') || (match[3] ?? '').endsWith('Patch'))) return undefined;

  const props = plainCopy(resource.props);
  if (typeof props !== 'object' || props === null || Array.isArray(props)) return undefined;
  const object = props as Record<string, unknown>;
  if (match) {
    const [, group, version, kind] = match;
    // Props carry apiVersion and kind once created; derive them from the type when they do not.
    if (typeof object.apiVersion !== 'string') object.apiVersion = group === 'core' ? version : `${group}/${version}`;
    if (typeof object.kind !== 'string') object.kind = kind;
  }
  if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') return undefined;
  return { object, urn: resource.urn };
}

/**
 * A plain, deep copy of `value`. During `pulumi preview` the policy framework wraps props in a
 * proxy that throws on reading a value not known yet (an auto-generated name, say); one such read
 * would make the whole stack policy "not run during preview". Unknown values are left out
 * instead, which rules treat like an unset field.
 */
export function plainCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const item = readKnown(value, i);
      if (item.known) items.push(plainCopy(item.value));
    }
    return items;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = readKnown(value, key);
    if (field.known && field.value !== undefined) copy[key] = plainCopy(field.value);
  }
  return copy;
}

function readKnown(container: object, key: string | number): { known: true; value: unknown } | { known: false } {
  try {
    return { known: true, value: (container as Record<string | number, unknown>)[key] };
  } catch (error) {
    if (error instanceof Error && error.constructor.name === 'UnknownValueError') return { known: false };
    throw error;
  }
}

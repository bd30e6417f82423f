/** The annotations that make a StorageClass the cluster default (the beta one is still honoured). */
const DEFAULT_CLASS_ANNOTATIONS = [
  'storageclass.kubernetes.io/is-default-class',
  'storageclass.beta.kubernetes.io/is-default-class',
];

/**
 * What a StorageClass's annotations (or a patch's) say of it being the default: true, false, or
 * undefined when they do not say.
 */
export function defaultClassMark(annotations: Readonly<Record<string, string>>): boolean | undefined {
  const values = DEFAULT_CLASS_ANNOTATIONS.map((annotation) => annotations[annotation]).filter(
    (value) => value !== undefined,
  );
  if (values.length === 0) return undefined;
  return values.includes('true');
}

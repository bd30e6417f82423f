import * as path from 'path';
import { isRecord } from '../validators/json';

/** The names kustomize looks for in a directory. */
const KUSTOMIZATION_FILE_NAMES = new Set(['kustomization.yaml', 'kustomization.yml', 'Kustomization']);

/** The fields of a Kustomization whose entries name files that are not objects to apply. */
const FILE_LIST_FIELDS = [
  'patchesStrategicMerge',
  'transformers',
  'generators',
  'validators',
  'configurations',
  'crds',
] as const;
/** The fields whose entries are `{path: ...}` (or, for old `patches`, a bare path). */
const PATH_ENTRY_FIELDS = ['patches', 'patchesJson6902', 'replacements'] as const;

/**
 * The files kustomizations in the input name as patches or transformer configs, resolved against
 * the kustomization's directory. A strategic-merge patch looks like an object but is a fragment
 * merged into one (a Deployment patch carrying only `replicas`): judged alone it would be a false
 * alarm, and next to its base a false duplicate. Kustomize's `resources` are objects and stay.
 */
export function kustomizeNonObjectFiles(
  documents: readonly { object: Record<string, unknown>; file: string }[],
): Set<string> {
  return filesNamedBy(documents, (object, add) => {
    for (const field of FILE_LIST_FIELDS) entriesOf(object[field]).forEach(add);
    for (const field of PATH_ENTRY_FIELDS) {
      for (const entry of entriesOf(object[field])) add(isRecord(entry) ? entry.path : entry);
    }
  });
}

/**
 * The files kustomizations in the input read as data: the `files` and `envs` of their ConfigMap
 * and Secret generators (`key=path` or `path`), and the values files of their Helm charts. A Helm
 * values file (`kind: Deployment` selects the descheduler chart's workload) or an application's own
 * YAML kept for a ConfigMap is no object to apply: judged as one it would be a false alarm.
 */
export function kustomizeDataFiles(
  documents: readonly { object: Record<string, unknown>; file: string }[],
): Set<string> {
  return filesNamedBy(documents, (object, add) => {
    // `key=path` names the key the file is stored under.
    const addSource = (entry: unknown) => add(typeof entry === 'string' ? entry.slice(entry.indexOf('=') + 1) : entry);
    for (const field of ['configMapGenerator', 'secretGenerator'] as const) {
      for (const generator of recordsOf(object[field])) {
        entriesOf(generator.files).forEach(addSource);
        entriesOf(generator.envs).forEach(addSource);
        addSource(generator.env);
      }
    }
    for (const chart of recordsOf(object.helmCharts)) {
      add(chart.valuesFile);
      entriesOf(chart.additionalValuesFiles).forEach(add);
    }
  });
}

/** The files `collect` names in each kustomization of the input, resolved against its directory. */
function filesNamedBy(
  documents: readonly { object: Record<string, unknown>; file: string }[],
  collect: (kustomization: Record<string, unknown>, add: (entry: unknown) => void) => void,
): Set<string> {
  const files = new Set<string>();
  for (const { object, file } of documents) {
    if (!isKustomization(object, file)) continue;
    const directory = path.dirname(file);
    // Inline patches (a YAML string with a newline) name no file.
    collect(object, (entry) => {
      if (typeof entry === 'string' && !entry.includes('\n')) files.add(path.normalize(path.join(directory, entry)));
    });
  }
  return files;
}

function entriesOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function recordsOf(value: unknown): Array<Record<string, unknown>> {
  return entriesOf(value).filter(isRecord);
}

/** A file kustomize reads as a kustomization, by its name. */
export function isKustomizationFile(file: string): boolean {
  return KUSTOMIZATION_FILE_NAMES.has(path.basename(file));
}

/**
 * kustomize's Kustomization or Component. kustomize reads a `kustomization.yaml` without
 * apiVersion or kind too, so the file name alone is enough.
 */
function isKustomization(object: Record<string, unknown>, file: string): boolean {
  if (isKustomizationFile(file)) return true;
  const { apiVersion, kind } = object;
  if (kind !== 'Kustomization' && kind !== 'Component') return false;
  return (
    apiVersion === undefined || (typeof apiVersion === 'string' && apiVersion.startsWith('kustomize.config.k8s.io/'))
  );
}

/** A strategic-merge patch written inside a kustomization: its text and the field that holds it. */
export interface InlinePatch {
  readonly text: string;
  /** `patches[2].patch`, `patchesStrategicMerge[0]`. */
  readonly path: string;
}

/**
 * The strategic-merge patches a kustomization writes inline: `patches[].patch` and YAML entries of
 * `patchesStrategicMerge` (a file name has no newline). JSON 6902 patches are operations on paths,
 * not objects, and are left out.
 */
export function inlinePatches(object: Record<string, unknown>, file: string): InlinePatch[] {
  if (!isKustomization(object, file)) return [];
  const found: InlinePatch[] = [];
  const { patches, patchesStrategicMerge } = object;
  if (Array.isArray(patches)) {
    patches.forEach((entry, i) => {
      if (isRecord(entry) && typeof entry.patch === 'string')
        found.push({ text: entry.patch, path: `patches[${i}].patch` });
    });
  }
  if (Array.isArray(patchesStrategicMerge)) {
    patchesStrategicMerge.forEach((entry, i) => {
      if (typeof entry === 'string' && entry.includes('\n'))
        found.push({ text: entry, path: `patchesStrategicMerge[${i}]` });
    });
  }
  return found;
}

import { YAMLException, loadAll as loadYamlDocuments } from 'js-yaml';
import * as path from 'path';
import { Finding } from '../validators/finding';
import { isClusterScopedKind } from '../validators/cluster-scoped-kinds';
import { isRecord } from '../validators/json';
import { KUBERNETES_YAML_SCHEMA } from '../validators/yaml-schema';
import { clusterResourceSetObjects } from './cluster-resource-sets';
import { Interner } from './compact-document';
import { inputFiles } from './input-files';
import { inlinePatches, kustomizeDataFiles, kustomizeNonObjectFiles } from './kustomize-patches';
import { moveBindingSubjects } from './kustomize-binding-subjects';
import { kustomizeNamespaces } from './kustomize-namespaces';
import { kustomizeResourceFiles } from './kustomize-resources';
import {
  FileLoad,
  Kustomization,
  LoadedObject,
  ManifestSource,
  ReadableInput,
  SkipReason,
  TypelessDocument,
  loadFile,
  loaderFinding,
  templateKind,
} from './load-file';
import { DEFAULT_MAX_FILE_BYTES, readInput } from './read-input';

export { YAML_SYNTAX_ERROR, type LoadedObject, type ManifestSource, type SkipReason } from './load-file';
export { STDIN_NAME } from './input-files';
export { UsageError } from './usage-error';
/** A file or chart a directory walk met and did not lint, with why: counted in every report. */
export interface SkippedInput {
  readonly path: string;
  readonly reason: SkipReason;
}

export interface LoadedManifests {
  readonly objects: LoadedObject[];
  /**
   * The objects of files a kustomization in the input names as patches: fragments of their base,
   * judged only by the rules whose values a patch sets whole (`Rule.judgesPatches`); and the patches
   * kustomizations write inline (`source.inlinePatch`), read only as facts about their base.
   */
  readonly patches: LoadedObject[];
  /**
   * What was left out: in a directory walk, Helm charts, unparseable templates and YAML that is not
   * Kubernetes; anywhere, files a kustomization in the input names as patches.
   */
  readonly skipped: SkippedInput[];
  /** Every input read, in order (stdin as `<stdin>`). */
  readonly files: string[];
  /**
   * What a walk's READMEs and shell scripts say of the cluster (kinds ProjectReadme and
   * NodePackageInstall): objects the rules read, not objects of the input, so not counted as such.
   */
  readonly facts: LoadedObject[];
  /** Findings of the loader itself: unreadable, binary or invalid files. */
  readonly loaderFindings: Finding[];
  /** The text of an input, for locating findings: stdin is kept, files are read again. */
  readonly readText: (file: string) => string;
}

export interface LoadOptions {
  /** Reads standard input (for `-`); by default the process's, in chunks up to the limit. */
  readonly readStdin?: () => string;
  /** @default 64 MiB */
  readonly maxFileBytes?: number;
}

/**
 * Reads and parses every input under `paths` (see `inputFiles` for which and in what order):
 * YAML and JSON streams, Lists expanded, systemd unit drop-ins (a `[Section]` header) parsed into
 * objects of their own. Every document is parsed once, with js-yaml on this thread; nothing but
 * the parsed objects is kept, each in a compact form and without the bodies no rule reads
 * (unread-bodies.ts); files are read again, only when a finding needs its line.
 */
export function loadManifests(paths: readonly string[], options: LoadOptions = {}): LoadedManifests {
  const files = inputFiles(paths);
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const interner = new Interner();
  const objects: LoadedObject[] = [];
  const facts: LoadedObject[] = [];
  const loaderFindings: Finding[] = [];
  const skipped: SkippedInput[] = [];
  const kustomizations: Kustomization[] = [];
  const typeless: TypelessDocument[] = [];
  const read = new Map<string, ReadableInput>();
  let stdinText: string | undefined;
  for (const file of files) {
    if (file.kind === 'helm-chart') {
      skipped.push({ path: file.name, reason: 'helm-chart' });
      continue;
    }
    let load: FileLoad;
    if (file.kind === 'stdin') {
      // Standard input is read once, here, and kept: findings on it are placed in this text.
      const input = readInput(file, maxBytes, options.readStdin);
      if ('text' in input) stdinText = input.text;
      load = loadFile(file, maxBytes, interner, input);
    } else load = loadFile(file, maxBytes, interner);
    objects.push(...load.objects);
    facts.push(...load.facts);
    loaderFindings.push(...load.findings);
    kustomizations.push(...load.kustomizations);
    typeless.push(...load.typeless);
    if (load.outcome === true) read.set(file.name, file);
    else if (load.outcome !== false) skipped.push({ path: file.name, reason: load.outcome });
  }
  // A kustomization's generator and Helm values files are data, whatever the walk made of them.
  const dataFiles = kustomizeDataFiles(kustomizations);
  const isData = (file: string | undefined) =>
    dataFiles.size > 0 && file !== undefined && dataFiles.has(path.normalize(file));
  const data = new Set([...read.keys(), ...skipped.map((entry) => entry.path)].filter(isData));
  for (const name of data) read.delete(name);
  const patchFiles = kustomizeNonObjectFiles(kustomizations);
  const resourceFiles = kustomizeResourceFiles(kustomizations);
  const applied: LoadedObject[] = [];
  const patches: LoadedObject[] = [];
  const patched = new Set<string>();
  for (const loaded of objects) {
    if (isData(loaded.source.file)) continue;
    const file = path.normalize(loaded.source.file);
    if (patchFiles.has(file)) {
      patched.add(loaded.source.file);
      patches.push(loaded);
    } else if (resourceFiles.has(file)) {
      applied.push({ object: loaded.object, source: { ...loaded.source, kustomizeResource: true } });
    } else applied.push(loaded);
  }
  // A document with neither apiVersion nor kind is an object, a broken one, where a kustomization
  // lists its file in resources: kustomize build refuses it ("missing kind in object").
  for (const { file, documentIndex, metadata } of typeless) {
    if (resourceFiles.has(path.normalize(file)) && !isData(file))
      applied.push({ object: metadata ? { metadata } : {}, source: { file, documentIndex, kustomizeResource: true } });
  }
  for (const file of patched) skipped.push({ path: file, reason: 'kustomize-patch' });
  // An object in a file a kustomization with `namespace:` lists is in that namespace, as `kustomize
  // build` puts it (replacing its own): its claims and roles are found where it will run.
  const namespaces = kustomizeNamespaces(kustomizations);
  moveBindingSubjects(applied, namespaces);
  for (const { object, source } of applied) {
    const namespace = namespaces.get(path.normalize(source.file));
    const metadata = object.metadata;
    if (namespace === undefined || !isRecord(metadata)) continue;
    if (!isClusterScopedKind(typeof object.kind === 'string' ? object.kind : undefined)) metadata.namespace = namespace;
  }
  // What a ClusterResourceSet applies to workload clusters, read after the kustomize passes: a
  // kustomization's namespace does not reach into the text of a Secret.
  applied.push(...clusterResourceSetObjects(applied, interner));
  for (const kustomization of kustomizations) {
    const inline = inlinePatchObjects(kustomization, interner);
    patches.push(...inline.patches);
    loaderFindings.push(...inline.findings);
  }
  return {
    objects: applied,
    patches,
    facts,
    skipped: [
      ...skipped.filter((entry) => !data.has(entry.path)),
      ...[...data].map((name) => ({ path: name, reason: 'kustomize-data' as const })),
    ],
    files: [...read.keys()],
    loaderFindings: loaderFindings.filter((finding) => !isData(finding.source.file)),
    readText: (name) => {
      const file = read.get(name);
      if (file?.kind === 'stdin') return stdinText ?? '';
      const text = file ? readInput(file, maxBytes) : undefined;
      return text && 'text' in text ? text.text : '';
    },
  };
}

/**
 * The objects of a kustomization's inline patches, and a finding for each patch that does not
 * parse: kustomize build refuses the whole kustomization ("unable to parse SM or JSON patch"). A
 * patch with template placeholders is left alone: it is filled in before kustomize reads it.
 */
function inlinePatchObjects(
  { object, file, documentIndex }: Kustomization,
  interner: Interner,
): { patches: LoadedObject[]; findings: Finding[] } {
  const patches: LoadedObject[] = [];
  const findings: Finding[] = [];
  for (const { text, path: inlinePatch } of inlinePatches(object, file)) {
    let documents: unknown[];
    try {
      documents = loadYamlDocuments(text, undefined, { filename: file, schema: KUBERNETES_YAML_SCHEMA });
    } catch (error) {
      if (templateKind(text) === undefined) findings.push(brokenInlinePatch(file, documentIndex, inlinePatch, error));
      continue;
    }
    for (const patch of documents.filter(isRecord))
      patches.push({
        object: interner.compact(patch) as Record<string, unknown>,
        source: { file, documentIndex, inlinePatch },
      });
  }
  return { patches, findings };
}

/** The finding on an inline patch that does not parse, at its field (the line is found from the path). */
function brokenInlinePatch(file: string, documentIndex: number, inlinePatch: string, error: unknown): Finding {
  const where =
    error instanceof YAMLException
      ? `${error.reason} (line ${(error.mark?.line ?? 0) + 1} of the patch)`
      : String(error);
  const placed: ManifestSource = { file, documentIndex };
  return {
    ...loaderFinding(
      file,
      1,
      `invalid YAML in the inline patch ${inlinePatch}: ${where}: kustomize build refuses the kustomization ("unable to parse SM or JSON patch")`,
      'Fix the patch text so it parses as YAML (a JSON 6902 patch is a list of operations: `- op: replace`, a space after the dash); `kustomize build` shows the same error.',
    ),
    source: placed,
    path: inlinePatch,
  };
}

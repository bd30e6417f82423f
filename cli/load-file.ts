import { loadAll as loadYamlDocuments, YAMLException } from 'js-yaml';
import { Finding, ObjectSource } from '../validators/finding';
import { isKindlessDocument, listedObjects } from '../validators/list-items';
import { kubesprayVariables } from '../validators/kubespray-variables';
import { isShellScriptName, nodePackageInstall, shellPackageInstall } from '../validators/node-package-installs';
import { k3sConfig } from '../validators/k3s-config';
import { k3osConfig } from '../validators/k3os-config';
import {
  omniClusterTemplate,
  talhelperConfig,
  talosImageSchematic,
  talosMachineConfig,
} from '../validators/talos-machine-config';
import { rkeClusterConfig } from '../validators/rke-cluster-config';
import { isSystemdUnitText, parseSystemdDropIn } from '../validators/systemd-drop-in';
import { GO_MODULE_FILE, goModule } from '../validators/go-module';
import { isProjectReadmeName, projectReadme } from '../validators/project-readme';
import { KUBERNETES_YAML_SCHEMA } from '../validators/yaml-schema';
import {
  AT_PLACEHOLDER,
  BRACE_PLACEHOLDER,
  ENVSUBST_VARIABLE,
  PERCENT_PLACEHOLDER,
  PYTHON_FORMAT_PLACEHOLDER,
  UNDERSCORE_PLACEHOLDER,
} from '../validators/placeholders';
import * as path from 'path';
import { documentRanges } from './document-ranges';
import { jsonStreamRanges } from './json-stream';
import { isKustomizationFile } from './kustomize-patches';
import type { EmbeddedSource } from './cluster-resource-sets';
import { JsonRecord, isRecord } from '../validators/json';
import { objectRefOf } from '../validators/object-index';
import { fieldPath } from '../validators/field-path';
import { InputFile, STDIN_NAME } from './input-files';
import { InputText, readInput } from './read-input';
import { Interner } from './compact-document';
import { aliasKeysSpaced } from './alias-keys';
import { escapedSingleQuoteRead } from './quote-escapes';
import { unicodeLineBreaksRead } from './unicode-line-breaks';
import { droppableBodies, identityOnly } from './unread-bodies';

/** The rule id of findings the loader itself produces (a file that cannot be read or parsed). */
export const YAML_SYNTAX_ERROR = 'yaml-syntax-error';

/** Where one object came from: the engine keeps this object as the finding's `source`. */
export interface ManifestSource extends ObjectSource {
  readonly file: string;
  /** Index of the YAML document in the file (js-yaml's order). */
  readonly documentIndex: number;
  /** Index in `items` when the object came out of a `List` (in `objects` of an OpenShift Template: `listField`). */
  readonly listItemIndex?: number;
  /** The field `listItemIndex` counts in, when it is not a List's `items`. */
  readonly listField?: 'objects';
  /** The object parsed from a systemd drop-in (not YAML): its entries carry their own `line`. */
  readonly dropIn?: Record<string, unknown>;
  /**
   * For a patch written inside a kustomization, the field of the kustomization document that holds
   * it (`patches[1].patch`): read as a fact about its base, not judged (findings need a place in a file).
   */
  readonly inlinePatch?: string;
  /**
   * For an object written as text in a field of another (a manifest a Cluster API ClusterResourceSet
   * applies, in its Secret's `stringData[calico.yaml]`): where in the host object, and the text.
   */
  readonly embeddedIn?: EmbeddedSource;
}

export interface LoadedObject {
  readonly object: Record<string, unknown>;
  readonly source: ManifestSource;
}

/** Why a file met in a directory walk was not linted. */
export type SkipReason =
  'helm-chart' | 'template' | 'not-kubernetes' | 'kustomize-patch' | 'kustomize-data' | 'encrypted';

/**
 * What the loader keeps for the kustomize passes: the kustomizations (kustomization.yaml often has
 * neither apiVersion nor kind, so it is no object), and where every other document with neither is,
 * with its name: it is an object only if a kustomization lists its file in resources.
 */
interface KustomizeInput {
  readonly kustomizations: Kustomization[];
  readonly typeless: TypelessDocument[];
}

/** A mapping document with neither apiVersion nor kind: its place, and its name and namespace if it has them. */
export interface TypelessDocument {
  readonly file: string;
  readonly documentIndex: number;
  readonly metadata?: Record<string, string>;
}

/** A kustomization document met in the input, kept to find the files it names as patches. */
export interface Kustomization {
  readonly object: Record<string, unknown>;
  readonly file: string;
  readonly documentIndex: number;
}

/**
 * What one input yields, whatever thread read it: its objects, the facts it states, the loader's
 * findings on it, and what the kustomize passes need (its kustomizations, its documents without
 * apiVersion or kind). `outcome` is true for an input read and linted, false for one that is not
 * ours (read for a fact, or another tool's `.conf`), or why a walk skipped it.
 */
export interface FileLoad {
  readonly outcome: boolean | Exclude<SkipReason, 'helm-chart'>;
  readonly objects: LoadedObject[];
  readonly facts: LoadedObject[];
  readonly findings: Finding[];
  readonly kustomizations: Kustomization[];
  readonly typeless: TypelessDocument[];
}

/** An input read from disk or standard input: what `loadFile` takes. */
export type ReadableInput = Exclude<InputFile, { kind: 'helm-chart' }>;

/**
 * Reads and parses one input (see `loadManifests`). Depends on nothing but the input itself, so
 * inputs can be loaded on any thread and in any order: `loadManifests` puts them back in input
 * order. `input` is given for standard input, read once by the caller, which keeps its text.
 */
export function loadFile(
  file: ReadableInput,
  maxBytes: number,
  interner: Interner,
  input: InputText = readInput(file, maxBytes),
): FileLoad {
  const load: FileLoad = { outcome: true, objects: [], facts: [], findings: [], kustomizations: [], typeless: [] };
  if ('problem' in input) {
    load.findings.push(loaderFinding(file.name, 1, input.problem, input.fix));
    return load;
  }
  // The load's own lists collect what the file yields: its objects and facts, the loader's
  // findings, and its kustomizations and typeless documents for the kustomize passes.
  const outcome = loadText(file, input.text, load, load.findings, load, interner);
  return { ...load, outcome };
}

/**
 * The files a walk reads for one fact each, by name: a node-preparation shell script for the node
 * prerequisites it installs (node-package-installs.ts), a README for the distribution it names
 * (project-readme.ts).
 */
const FACT_READERS: ReadonlyArray<readonly [(name: string) => boolean, (text: string) => JsonRecord | undefined]> = [
  [isShellScriptName, shellPackageInstall],
  [isProjectReadmeName, projectReadme],
];

function factReaderOf(file: string): ((text: string) => JsonRecord | undefined) | undefined {
  const name = path.basename(file);
  return FACT_READERS.find(([isNamed]) => isNamed(name))?.[1];
}

/**
 * Parses one input's text: a Go module file, a systemd drop-in or a YAML/JSON stream. False for a
 * `.conf` file that is not ours to read; a skip reason for a walked file that does not parse and is
 * a template or another tool's file (readByOtherTools).
 */
function loadText(
  file: InputFile,
  text: string,
  { objects, facts }: { objects: LoadedObject[]; facts: LoadedObject[] },
  findings: Finding[],
  kustomize: KustomizeInput,
  interner: Interner,
): boolean | Exclude<SkipReason, 'helm-chart'> {
  const factReader = file.kind === 'file' ? factReaderOf(file.name) : undefined;
  if (text.startsWith(GIT_CRYPT_HEADER)) {
    if (file.kind === 'file' && file.discovered) return 'encrypted';
    findings.push(
      loaderFinding(
        file.name,
        1,
        'the file is encrypted by git-crypt, so its objects cannot be read',
        'Run `git-crypt unlock` before linting, or leave the file out of the paths.',
      ),
    );
  } else if (looksBinary(text)) {
    findings.push(
      loaderFinding(
        file.name,
        1,
        'the file is binary, not YAML, JSON or a systemd drop-in',
        'Leave binary files out of the paths given to `ballast lint`.',
      ),
    );
  } else if (file.kind === 'file' && path.basename(file.name) === GO_MODULE_FILE) {
    objects.push({
      object: interner.compact(goModule(text)) as Record<string, unknown>,
      source: { file: file.name, documentIndex: 0 },
    });
  } else if (factReader) {
    // Read for one fact about the cluster, kept only as that: never linted or counted.
    const fact = factReader(text);
    if (fact)
      facts.push({
        object: interner.compact(fact) as Record<string, unknown>,
        source: { file: file.name, documentIndex: 0 },
      });
    return false;
  } else if (isUnitDropIn(file, text)) {
    loadDropIn(text, file.name, objects, findings);
  } else if (file.kind === 'file' && file.discovered && CONF_FILE.test(file.name) && !OBJECT_KEY.test(text)) {
    // A `.conf` found in a directory that is neither a kubelet unit drop-in nor a Kubernetes object
    // (an nginx, sysctl or other unit's config): not ours to judge.
    return false;
  } else {
    return loadYaml(text, file.name, file.kind === 'file' && file.discovered, objects, findings, kustomize, interner);
  }
  return true;
}

function loadYaml(
  text: string,
  file: string,
  discovered: boolean,
  objects: LoadedObject[],
  findings: Finding[],
  kustomize: KustomizeInput,
  interner: Interner,
): true | Exclude<SkipReason, 'helm-chart'> {
  let documents: unknown[];
  try {
    documents = loadYamlDocuments(text, undefined, { filename: file, schema: KUBERNETES_YAML_SCHEMA });
    if (discovered && isHelmValues(file, documents)) return 'not-kubernetes';
    if (discovered && parsedTemplateAction(text, documents)) return 'template';
    const tabLine = leadingTabLine(text);
    if (tabLine !== undefined) {
      findings.push(
        loaderFinding(
          file,
          tabLine,
          'invalid YAML: a tab begins a line before the first token: kubectl refuses the file ("found character that cannot start any token")',
          'Remove the tab: YAML indents with spaces only.',
        ),
      );
    }
  } catch (error) {
    const stream = jsonStreamDocuments(text, file);
    if (stream) return loadDocuments(stream, file, objects, kustomize, interner, false);
    const asGoYaml = readAsGoYaml(text, error, file);
    if (asGoYaml) return loadDocuments(asGoYaml, file, objects, kustomize, interner, true);
    const template = templateKind(text);
    // Only files met in a walk are skipped: a file named on the command line is always reported.
    // A key written twice leaves the file readable: it is reported and checked, template or not;
    // but in a ytt template, both branches of an `#@ if` write the key, and ytt keeps one.
    if (discovered && template && (template === 'ytt' || !isDuplicateKey(error))) return 'template';
    const lenient = isDuplicateKey(error) ? lastValueWins(text, file) : undefined;
    // A Compose file is Docker's, a yamllint configuration yamllint's, broken or not: no cluster
    // applies them (devopswihnaveen/open5g's docker-compose.yml mixes a list item with a mapping key).
    const writesApiVersionOrKind = OBJECT_KEY.test(text);
    if (discovered && !writesApiVersionOrKind && OTHER_TOOL_FILES.some((name) => name.test(path.basename(file))))
      return 'not-kubernetes';
    if (
      discovered &&
      (!writesApiVersionOrKind || CLOUDFORMATION_TEMPLATE.test(text)) &&
      readByOtherTools(file, error)
    ) {
      // Ansible keeps a repeated key's last writing: Kubespray variables are still read for what they set.
      if (!lenient?.some((document) => nodeConfiguration(document, file) !== undefined)) return 'not-kubernetes';
      return loadDocuments(lenient, file, objects, kustomize, interner, text.includes('&'));
    }
    // Helm reads values with sigs.k8s.io/yaml, which keeps a repeated key's last value: no error there.
    if (discovered && lenient && isHelmValues(file, lenient)) return 'not-kubernetes';
    if (lenient) {
      if (!(discovered && readKeepingLastKey(text, lenient)))
        findings.push(...duplicateKeyFindings(file, text, lenient, error, isKustomizationFile(file)));
      documents = lenient;
    } else {
      findings.push(syntaxFinding(file, error, 0, template));
      documents = salvageDocuments(text, file, findings, template);
    }
  }
  // A node is shared only where an anchor is: a text without `&` has none.
  return loadDocuments(documents, file, objects, kustomize, interner, text.includes('&'));
}

/** Keeps the objects of a file's parsed documents (Lists expanded), and its kustomizations aside. */
function loadDocuments(
  documents: readonly unknown[],
  file: string,
  objects: LoadedObject[],
  kustomize: KustomizeInput,
  interner: Interner,
  sharesNodes: boolean,
): true {
  const kustomization = isKustomizationFile(file);
  if (kustomization) {
    documents.forEach((document, documentIndex) => {
      if (isRecord(document)) kustomize.kustomizations.push({ object: document, file, documentIndex });
    });
  }
  // Scalars, sequences and empty documents are not Kubernetes objects; Lists are expanded; other
  // tools' node configuration is read as objects of its own (nodeConfiguration).
  const listed = documents.map((document) => listedObjects(nodeConfiguration(document, file) ?? document));
  const droppable = droppableBodies(listed.flatMap((found) => found.map(({ object }) => object)));
  listed.forEach((found, documentIndex) => {
    const document = documents[documentIndex];
    if (found.length === 0 && !kustomization && isKindlessDocument(document))
      kustomize.typeless.push({ file, documentIndex, ...typelessIdentity(document, interner) });
    for (const { object, itemIndexes, listField } of found) {
      const [listItemIndex] = itemIndexes;
      objects.push({
        object: interner.compact(droppable.has(object) ? identityOnly(object) : object, sharesNodes) as Record<
          string,
          unknown
        >,
        source: {
          file,
          documentIndex,
          ...(listItemIndex !== undefined ? { listItemIndex } : {}),
          ...(listField === 'objects' ? { listField } : {}),
        },
      });
    }
  });
  return true;
}

/**
 * A document of another tool that sets what reaches the kubelet or the nodes, as an object of its
 * own: Kubespray inventory variables, Ansible or cloud-init that install a node package, k3s/RKE2,
 * k3OS, Talos (and talhelper, Omni) and RKE configuration. Undefined for any other document.
 */
function nodeConfiguration(document: unknown, file: string): Record<string, unknown> | undefined {
  return (
    kubesprayVariables(document, file) ??
    nodePackageInstall(document, file) ??
    k3sConfig(document) ??
    k3osConfig(document) ??
    talosMachineConfig(document) ??
    talhelperConfig(document) ??
    talosImageSchematic(document) ??
    omniClusterTemplate(document) ??
    rkeClusterConfig(document)
  );
}

/** The name and namespace of a document with neither apiVersion nor kind, as its finding names it. */
function typelessIdentity(
  document: Record<string, unknown>,
  interner: Interner,
): { metadata?: Record<string, string> } {
  const metadata = isRecord(document.metadata) ? document.metadata : undefined;
  const identity: Record<string, string> = {};
  for (const field of ['name', 'namespace'] as const) {
    const value = metadata?.[field];
    if (typeof value === 'string') identity[field] = value;
  }
  // Kept as every object is (compact-document.ts): no string slice holds the file's text alive.
  return Object.keys(identity).length > 0
    ? { metadata: interner.compact(identity, false) as Record<string, string> }
    : {};
}

/** The documents of a JSON stream (json-stream.ts), or undefined when the text is none or a value does not parse. */
function jsonStreamDocuments(text: string, file: string): unknown[] | undefined {
  const lines = text.split('\n');
  const ranges = jsonStreamRanges(lines);
  if (!ranges) return undefined;
  try {
    return ranges.map(
      ({ first, end }) =>
        loadYamlDocuments(lines.slice(first, end).join('\n'), undefined, {
          filename: file,
          schema: KUBERNETES_YAML_SCHEMA,
        })[0],
    );
  } catch {
    return undefined;
  }
}

/**
 * A file with a syntax error in one document still has its other documents checked: the file is
 * split at `---` lines (which YAML never allows inside a document) and each part parsed alone.
 */
function salvageDocuments(
  text: string,
  file: string,
  findings: Finding[],
  template: TemplateKind | undefined,
): unknown[] {
  const documents: unknown[] = [];
  const lines = text.split(/\r?\n/);
  const parts = documentRanges(lines).map(({ first, end }) => ({
    text: lines.slice(first, end).join('\n'),
    firstLine: first + 1,
  }));
  for (const part of parts) {
    try {
      const parsed = loadYamlDocuments(part.text, undefined, { filename: file, schema: KUBERNETES_YAML_SCHEMA });
      documents.push(parsed.length === 1 ? parsed[0] : undefined);
    } catch (error) {
      // The whole-file error already names the first broken document; report later ones too.
      const finding = syntaxFinding(file, error, part.firstLine - 1, template);
      if (!findings.some((f) => f.source.file === file && f.source.line === finding.source.line))
        findings.push(finding);
      const lenient = isDuplicateKey(error) ? lastValueWins(part.text, file) : undefined;
      documents.push(lenient?.length === 1 ? lenient[0] : undefined);
    }
  }
  return documents;
}

function loadDropIn(text: string, file: string, objects: LoadedObject[], findings: Finding[]): void {
  try {
    // The parser never throws by contract and reports unreadable lines in `problems`; the guard
    // keeps a bug there from ending the whole run.
    const object = parseSystemdDropIn(text, file === STDIN_NAME ? 'stdin.conf' : file) as unknown as Record<
      string,
      unknown
    >;
    objects.push({ object, source: { file, documentIndex: 0, dropIn: object } });
  } catch (error) {
    findings.push(
      loaderFinding(
        file,
        1,
        `the systemd drop-in cannot be read: ${error instanceof Error ? error.message : String(error)}`,
        'Fix the drop-in so systemd can read it (`systemd-analyze verify` checks it).',
      ),
    );
  }
}

/**
 * A walked file without `apiVersion` or `kind` that js-yaml refuses, in a way other tools' own
 * parsers accept: custom tags (mkdocs' `!!python/name:`, CloudFormation's `!Ref`), a key written
 * twice (PyYAML keeps the last), JSON with comments (tsconfig.json, .vscode settings). Not
 * Kubernetes, and valid for its tool: skipped. Any other syntax error breaks the file for every
 * reader (a merge-conflict marker, a logstash config saved as .yaml) and is reported.
 */
function readByOtherTools(file: string, error: unknown): boolean {
  if (JSON_FILE.test(file)) return true;
  return error instanceof YAMLException && (error.reason.startsWith('unknown tag') || isDuplicateKey(error));
}

/**
 * Whether a walked file is read by a tool whose YAML parser keeps a repeated key's last writing
 * (PyYAML, no error), not by kubectl: Ansible plays and task lists (every document a sequence, a
 * shape kubectl refuses, even where a task's `k8s` definition holds an object) and cloud-init's
 * `#cloud-config`. A key written twice there is no error; the file is read with the last writing.
 */
function readKeepingLastKey(text: string, documents: readonly unknown[]): boolean {
  if (CLOUD_CONFIG.test(text)) return true;
  const written = documents.filter((document) => document !== null && document !== undefined);
  return written.length > 0 && written.every(Array.isArray);
}

/**
 * The documents of a text js-yaml refused as go-yaml (kubectl, kustomize, Flux) reads it, where the
 * difference is one go-yaml accepts and js-yaml does not: an alias key with no space before its
 * colon, a `\'` escape (each rewrite answers the error of the parse before it), U+2028 and U+2029
 * line separators (all rewritten at once, where the other two do not apply). A text with several
 * is rewritten as many times, up to a bound (each time parses the whole text again). Undefined when
 * an error is of another kind.
 */
function readAsGoYaml(text: string, error: unknown, file: string): unknown[] | undefined {
  let current = text;
  let failure = error;
  for (let rewrites = 0; rewrites < MAX_GO_YAML_REWRITES; rewrites++) {
    const rewritten =
      aliasKeysSpaced(current, failure) ?? escapedSingleQuoteRead(current, failure) ?? unicodeLineBreaksRead(current);
    if (rewritten === undefined) return undefined;
    try {
      return loadYamlDocuments(rewritten, undefined, { filename: file, schema: KUBERNETES_YAML_SCHEMA });
    } catch (next) {
      current = rewritten;
      failure = next;
    }
  }
  return undefined;
}

/** Beyond this many rewrites a file is reported as it stands: no real file has nearly as many. */
const MAX_GO_YAML_REWRITES = 200;

/**
 * A Helm values file met in a walk: the input of a chart, whatever keys it holds (`kind:
 * Deployment` picks the descheduler chart's workload), so none of its documents names an apiVersion.
 */
function isHelmValues(file: string, documents: readonly unknown[]): boolean {
  return (
    HELM_VALUES_FILE.test(path.basename(file)) &&
    !documents.some((document) => isRecord(document) && document.apiVersion !== undefined)
  );
}

function isDuplicateKey(error: unknown): boolean {
  return error instanceof YAMLException && error.reason === DUPLICATED_KEY;
}

/**
 * A duplicated key is the one syntax error that leaves a file readable: kubectl refuses it (the
 * error is reported), and the documents are still read as older kubectl and the API server read
 * them, the last value winning, so every rule checks them too. Undefined when the file has other
 * syntax errors as well.
 */
function lastValueWins(text: string, file: string): unknown[] | undefined {
  try {
    // js-yaml's `json` mode keeps a repeated key's last value instead of failing.
    return loadYamlDocuments(text, undefined, { filename: file, schema: KUBERNETES_YAML_SCHEMA, json: true });
  } catch {
    return undefined;
  }
}

/**
 * A file whose only syntax errors are keys written twice: one finding per repeated key, at the
 * line of its last writing and with its field path, so `ballast fix` can keep the value that counts
 * (`keep-last`). The finding js-yaml's error makes where the `yaml` package finds no repeat. In a
 * kustomization, only objects run together.
 */
function duplicateKeyFindings(
  file: string,
  text: string,
  documents: readonly unknown[],
  error: unknown,
  kustomization: boolean,
): Finding[] {
  const repeated = duplicateKeysOf().duplicateKeys(text);
  if (repeated.length === 0) return kustomization ? [] : [syntaxFinding(file, error, 0)];
  // kind written again at the top: objects run together where a `---` line is missing (each
  // object names its kind; an apiVersion written again alone, as in a ConfigMap whose `data` block
  // sits between two copies, is one object's repeated key). Keeping the last writings would delete
  // the earlier objects: `ballast fix` splits them (path `kind`, `split`) where their keys do not interleave.
  const runTogether = new Set(
    repeated
      .filter(({ path: keyPath }) => keyPath.length === 1 && keyPath[0] === 'kind')
      .map(({ documentIndex }) => documentIndex),
  );
  const merged = [...runTogether].map((documentIndex) => {
    const first = repeated.find((found) => found.documentIndex === documentIndex && found.path.length === 1);
    const line = first?.line ?? 1;
    return {
      ...loaderFinding(
        file,
        line,
        'invalid YAML: the document writes kind more than once: objects run together, a `---` line between them is missing; kubectl refuses the file ("mapping key ... already defined")',
        'Put a line `---` before each object after the first (`ballast fix` does). ballast checked the document as older kubectl applied it, the last writing of each key winning, so the earlier objects were lost.',
      ),
      source: { file, line, documentIndex },
      path: 'kind',
    };
  });
  // kustomize reads a kustomization.yaml leniently, the last writing of a key winning: a key written
  // again is no error there. Objects run together still are: the Kustomization gets another object's
  // fields, which kustomize refuses (`invalid Kustomization: json: unknown field "spec"`).
  if (kustomization) return merged;
  return [
    ...merged,
    ...repeated
      .filter(({ documentIndex }) => !runTogether.has(documentIndex))
      .map(({ documentIndex, path: keyPath, line, times }) => {
        const document = documents[documentIndex];
        const key = String(keyPath[keyPath.length - 1]);
        return {
          ...loaderFinding(
            file,
            line,
            `invalid YAML: the mapping writes the key "${key}" ${times} times: kubectl refuses the file ("mapping key ... already defined")`,
            'Keep one writing of the key. ballast checked the document with the last one, as older kubectl applied it; `ballast fix` removes the others.',
          ),
          object: isRecord(document) ? objectRefOf(document) : {},
          source: { file, line, documentIndex },
          path: fieldPath(...keyPath),
        };
      }),
  ];
}

/**
 * The duplicate-key finder, loaded on first use: it needs the `yaml` package, which costs about
 * 50 ms of start-up that a file without a repeated key never needs.
 */
function duplicateKeysOf(): typeof import('./duplicate-keys') {
  return require('./duplicate-keys') as typeof import('./duplicate-keys'); // eslint-disable-line @typescript-eslint/no-require-imports
}

function syntaxFinding(file: string, error: unknown, lineOffset: number, template?: TemplateKind): Finding {
  if (error instanceof YAMLException) {
    const line = (error.mark?.line ?? 0) + 1 + lineOffset;
    if (isDuplicateKey(error))
      return loaderFinding(
        file,
        line,
        'invalid YAML: duplicated mapping key: kubectl refuses the file ("mapping key ... already defined")',
        'Keep one of the two values. ballast checked the document with the last one, as older kubectl applied it.',
      );
    return loaderFinding(
      file,
      line,
      `invalid YAML: ${error.reason}${template ? ` (${TEMPLATES[template].what})` : ''}`,
      template
        ? TEMPLATES[template].fix
        : 'Fix the YAML syntax at this line; `ballast lint` checks the other documents of the file.',
    );
  }
  if (error instanceof RangeError) {
    return loaderFinding(
      file,
      1 + lineOffset,
      'the YAML is nested too deeply to read',
      'Flatten the document: no Kubernetes object nests this deep.',
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return loaderFinding(file, 1 + lineOffset, `invalid YAML: ${message}`, 'Fix the YAML syntax of this file.');
}

/**
 * The line of a tab that begins a line before the stream's first token (a comment line, or the
 * token's own line, unless JSON, which allows tabs). js-yaml skips white space there, tabs too
 * (`\t---` at the top of a file parses), where kubectl's parser refuses a tab; no block scalar can
 * start before the first token, so a tab there is never content.
 */
function leadingTabLine(text: string): number | undefined {
  // Line by line from the top, stopping at the first token: most files stop at their first line.
  for (let start = 0, number = 1; start < text.length; number++) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end);
    const content = line.trimStart();
    if (content !== '') {
      if (/^ *\t/.test(line) && !/^[{[]/.test(content)) return number;
      if (!content.startsWith('#')) return undefined;
    }
    start = end + 1;
  }
  return undefined;
}

export function loaderFinding(file: string, line: number, message: string, fix: string): Finding {
  return {
    rule: YAML_SYNTAX_ERROR,
    severity: 'error',
    message,
    fix,
    object: {},
    source: { file, line },
    path: '',
    suppressed: false,
  };
}

const CONF_FILE = /\.conf$/i;
const JSON_FILE = /\.json$/i;
/** A Helm values file's name: `values.yaml`, `values-prod.yaml`, `descheduler-values.yaml`, `values.dev.yml`. */
const HELM_VALUES_FILE = /(?:^|[-_.])values(?:[-_.][^/\\]*)?\.ya?ml$/i;
/** js-yaml's reason for a mapping that names a key twice. */
const DUPLICATED_KEY = 'duplicated mapping key';
/** The templates a file that does not parse may be, before it is rendered. */
export type TemplateKind = 'go' | 'envsubst' | 'placeholder' | 'ytt' | 'terraform' | 'erb';

const TEMPLATES: Readonly<Record<TemplateKind, { readonly what: string; readonly fix: string }>> = {
  go: {
    what: 'the file is a Helm or Go template: `{{ ... }}`',
    fix: 'Lint what the template renders to, e.g. `helm template ./chart | ballast lint -`.',
  },
  ytt: {
    what: 'the file is a ytt template: `#@ if`, `#@ for` or `#@ def` lines choose what it renders',
    fix: 'Lint what the template renders to, e.g. `ytt -f DIR | ballast lint -`.',
  },
  terraform: {
    what: 'the file is a Terraform template: `%{ for }` or `%{ if }` directives choose what it renders',
    fix: 'Lint what `templatefile()` renders: write it out (a `local_file` resource, or `terraform console`) and lint that file.',
  },
  erb: {
    what: 'the file is an ERB template: `<% ... %>` tags (Rails, Chef, Puppet) choose what it renders',
    fix: 'Lint what the template renders to, e.g. `erb FILE | ballast lint -`.',
  },
  placeholder: {
    what: 'the file holds `@VARIABLE@`, `__VARIABLE__`, `%VARIABLE%`, `{VARIABLE}` or `%(variable)s` placeholders that a build step fills in',
    fix: 'Lint what the build step writes, e.g. `sed "s|@IMAGE@|registry/app|" FILE | ballast lint -`.',
  },
  envsubst: {
    what: 'the file holds `${VARIABLE}` placeholders: a clusterctl or envsubst template',
    fix: 'Lint what the template renders to, e.g. `clusterctl generate yaml --from FILE | ballast lint -` or `envsubst < FILE | ballast lint -`.',
  },
};

/**
 * Which template a text that does not parse is, by its placeholders: Go template actions (Helm,
 * gomplate), ytt control lines, build-step `@NAME@` placeholders, or the `${VARIABLE}` and
 * `${VARIABLE:=default}` of clusterctl and envsubst, which can leave a file that is no YAML until
 * rendered (`tags: [ ${TAGS:= } ]`). A text whose placeholders are not what breaks it (shell
 * variables in a container's script, in a file broken elsewhere) is no template: with every
 * placeholder filled in, as envsubst would, it still does not parse.
 */
export function templateKind(text: string): TemplateKind | undefined {
  if (TEMPLATE_ACTION.test(text)) return 'go';
  if (YTT_CONTROL_LINE.test(text)) return 'ytt';
  if (TERRAFORM_DIRECTIVE.test(text)) return 'terraform';
  if (ERB_TAG.test(text)) return 'erb';
  const envsubst = ENVSUBST_VARIABLE.test(text) || BARE_VARIABLE_LINE.test(text);
  if (!envsubst && !BUILD_STEP_PLACEHOLDERS.some((form) => text.search(form) >= 0)) return undefined;
  try {
    // A placeholder alone on its line stands for lines of its own (an optional label or block,
    // `${RANCHER_TURTLES_LABEL:""}` at column 0 inside `labels:`, a `__TLS_PORT__` list item): it
    // is filled in with nothing.
    const withoutEnvsubst = text
      .replace(WHOLE_LINE_PLACEHOLDERS, '')
      .replace(BARE_VARIABLE_LINES, '')
      .replace(ENVSUBST_VARIABLES, 'x');
    const filled = BUILD_STEP_PLACEHOLDERS.reduce((partly, form) => partly.replace(form, 'x'), withoutEnvsubst);
    loadYamlDocuments(filled, undefined, { schema: KUBERNETES_YAML_SCHEMA });
    return envsubst ? 'envsubst' : 'placeholder';
  } catch {
    return undefined;
  }
}

/**
 * A walked file that parses only because its unquoted Go template actions are YAML too:
 * `server: {{ X.X.X.X }}` reads as a mapping whose one key is a mapping, which js-yaml names
 * `[object Object]`. kubectl refuses such a value, and no object has that key: the file is a
 * template, to be filled in before anything applies it (danielfrg/jupyterhub-kubernetes_spawner's
 * nfs2.yml, whose README says to write the server's address in first).
 */
function parsedTemplateAction(text: string, documents: readonly unknown[]): boolean {
  if (!text.includes('{{') || !TEMPLATE_ACTION.test(text)) return false;
  // Each node once: an aliased node is shared, and an alias bomb names it 10^9 times.
  const seen = new Set<object>();
  const holdsFlowMappingKey = (value: unknown): boolean => {
    if (value === null || typeof value !== 'object' || seen.has(value)) return false;
    seen.add(value);
    if (Array.isArray(value)) return value.some(holdsFlowMappingKey);
    if (!isRecord(value)) return false;
    return Object.keys(value).some((key) => key === FLOW_MAPPING_KEY || holdsFlowMappingKey(value[key]));
  };
  return documents.some(holdsFlowMappingKey);
}

/** How js-yaml names a mapping used as a key (`{{ x }}` inside a value): no object has this key. */
const FLOW_MAPPING_KEY = '[object Object]';

/**
 * A Go template action (Helm, gomplate) or a Jinja or mustache expression: `{{` and, after an
 * optional `-` and spaces, a field or variable (`.Values`, `$x`), a string, a comment, a group, or a
 * name followed by a space, `}}`, a pipe, a call or an index (`{{ toYaml .x }}`, `{{item}}`,
 * `{{ lookup('env', 'X') }}`). Doubled braces that are no action, as a Python f-string escapes
 * them (`f'iot_{k}{{device_id="{device}"}}'` in a ConfigMap's script), make no template.
 */
const TEMPLATE_ACTION = /\{\{-?\s*(?:[.$"'(/]|[A-Za-z_][\w.]*(?:\s|\}\}|[|([]))/;
/**
 * A ytt (Carvel) control line: a comment to YAML, Starlark to ytt, so the raw file holds every
 * branch (`#@ if`, `#@ else`, each writing the same key) and is no manifest until rendered. The
 * annotations alone (`#@overlay/match`, `#@data/values`) leave valid YAML, which is linted.
 */
const YTT_CONTROL_LINE = /^[ \t]*#@[ \t]*(?:if|elif|else|for|def|end)\b/m;
/**
 * A Terraform template directive (`templatefile()`): `%{ for i in range(n) ~}`, `%{~ endfor ~}`,
 * `%{ if ... }`. Like ytt's control lines, it leaves the raw file no manifest until rendered.
 */
const TERRAFORM_DIRECTIVE = /%\{~?[ \t]*(?:for|endfor|if|else|endif)\b/;
/**
 * An ERB tag (Ruby's templates: Rails' config/database.yml, Chef and Puppet's EPP alike): `<% if %>`
 * lines and `<%= ... %>` values, Ruby to ERB, which leave the raw file no YAML until rendered.
 */
const ERB_TAG = /<%[\s\S]*?%>/;

/**
 * The placeholders a build step fills in with sed (placeholders.ts), global, to be filled in wherever
 * they occur. `@` and `%` cannot begin a plain YAML value, so a file with `@NAME@` or `%NAME%`
 * placeholders (`repoURL: %REPO_NAME%`, quarkuscoffeeshop/tekton-pipelines) does not parse until
 * filled, nor does one whose `{NAME}` placeholder begins a value followed by more (`{APP_NAME}-hpa`).
 * For `@NAME@` and `{NAME}` lower case counts too (`name: @pvc@`, openebs/performance-benchmark's
 * scale-test templates; `name: {name}-pvc`, a Python operator's str.format templates): only a text
 * that does not parse, and parses once they are filled, is taken for a template, so an e-mail
 * address or a flow mapping cannot make one. Python's `%(name)s` (ameyp/k3s-cluster's Helm values
 * that jsonnet fills) and Maven's `@project.version@` (a Spring Boot application.yml) count alike.
 */
const BUILD_STEP_PLACEHOLDERS: readonly RegExp[] = [
  new RegExp(AT_PLACEHOLDER.source, 'gi'),
  new RegExp(UNDERSCORE_PLACEHOLDER.source, 'g'),
  new RegExp(PERCENT_PLACEHOLDER.source, 'g'),
  new RegExp(BRACE_PLACEHOLDER.source, 'gi'),
  new RegExp(PYTHON_FORMAT_PLACEHOLDER.source, 'g'),
];
const ENVSUBST_VARIABLES = new RegExp(ENVSUBST_VARIABLE.source, 'g');
const WHOLE_LINE_PLACEHOLDERS = new RegExp(
  `^[ \\t]*(?:${[ENVSUBST_VARIABLE, AT_PLACEHOLDER, UNDERSCORE_PLACEHOLDER, PERCENT_PLACEHOLDER, BRACE_PLACEHOLDER, PYTHON_FORMAT_PLACEHOLDER].map((form) => form.source).join('|')})[ \\t]*\\r?$`,
  'gm',
);
/**
 * envsubst's unbraced form alone on its line, in upper case: `$CONFIG_FILES` at column 0 under a
 * kustomization's `files:` (thedataflows/stalwart-kubernetes), a list a script fills in. Only whole
 * lines count: `$HOME` within a value is shell, and a text broken elsewhere still does not parse.
 */
const BARE_VARIABLE_LINE = /^[ \t]*\$[A-Z_][A-Z0-9_]*[ \t]*\r?$/m;
const BARE_VARIABLE_LINES = new RegExp(BARE_VARIABLE_LINE.source, 'gm');
const SERVICE_SECTION = /^\uFEFF?[ \t]*\[Service\][ \t]*\r?$/m;
/** The line a cloud-config must begin with (cloud-init reads it as one only then). */
const CLOUD_CONFIG = /^#cloud-config[ \t]*(\r?\n|$)/;

const OBJECT_KEY = /^[ \t]*["']?(apiVersion|kind)["']?[ \t]*:/m;
/**
 * The names of other tools' YAML files, read by their own tools only: Docker Compose's
 * (`docker-compose.yml`, `compose.yaml`, `docker-compose.prod.yml`) and yamllint's configuration
 * (`.yamllint.yaml`, and `lintconf.yaml`, the one helm/chart-testing passes to yamllint: epam/
 * edp-keycloak-operator's ct-configs/lintconf.yaml indents its `---`) and Jekyll's site configuration
 * (`_config.yml`: TawfiqulBari/contabo-16th-Aug-2025's unquoted `- *.backup*`).
 */
const OTHER_TOOL_FILES: readonly RegExp[] = [
  /^(docker-)?compose([.-][\w.-]+)?\.ya?ml$/i,
  /^(\.yamllint|lintconf)\.ya?ml$/i,
  /^_config\.ya?ml$/,
];
/**
 * An AWS CloudFormation template, by the version key its top level begins with: its `!Ref` tags and
 * its properties are CloudFormation's, even where the user data it embeds holds `kind:` lines (a
 * linkerd config in linkerd/linkerd-examples ecs/linkerd-ecs-cluster.yml).
 */
const CLOUDFORMATION_TEMPLATE = /^["']?AWSTemplateFormatVersion["']?[ \t]*:/m;

/**
 * A systemd unit drop-in, by content: a `.conf` file with a `[Service]` section (what kubelet
 * drop-ins set), or any input whose first content line is a section header (a drop-in piped to
 * `-`). `kubelet.conf.d/*.conf` KubeletConfiguration drop-ins are YAML and read as objects.
 */
function isUnitDropIn(file: InputFile, text: string): boolean {
  return CONF_FILE.test(file.name) ? SERVICE_SECTION.test(text) : isSystemdUnitText(text);
}

/**
 * How git-crypt begins a file it encrypts. A repository cloned without the key (a CI job, a
 * reviewer) holds such a file where its Secret or values are: nothing to lint until unlocked.
 */
const GIT_CRYPT_HEADER = '\u0000GITCRYPT\u0000';

/** A NUL character in the first 8 Ki characters: the heuristic git and grep use. */
function looksBinary(text: string): boolean {
  const nul = text.indexOf('\u0000');
  return nul >= 0 && nul < 8192;
}

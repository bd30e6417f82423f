import * as semver from 'semver';
import { JsonRecord } from './json';

/**
 * The kind ballast gives a Go module file (`go.mod`) met in the input: not a Kubernetes object, but
 * the versions of the libraries the module's programs are built with. A controller scaffolded by
 * kubebuilder keeps its manifests (`config/manager/manager.yaml`) in the same tree as its go.mod,
 * and which lock its leader election takes depends on the controller-runtime version there.
 */
export const GO_MODULE_KIND = 'GoModule';

/** The file name that makes a file a Go module's. */
export const GO_MODULE_FILE = 'go.mod';

/** The modules whose version a rule reads; the rest of a go.mod (often hundreds of lines) is not kept. */
export const CONTROLLER_RUNTIME = 'sigs.k8s.io/controller-runtime';
const READ_MODULES: ReadonlySet<string> = new Set([CONTROLLER_RUNTIME]);

/**
 * A go.mod as an object of kind GoModule: `module` (its path) and `requires` (module path to
 * version, for the modules a rule reads), after `replace` directives that pin another version.
 * A module replaced by a local directory or without a version is left out: its version is unknown.
 * The format is the Go reference's (https://go.dev/ref/mod#go-mod-file): one directive per line or
 * a parenthesised block of them, `//` comments.
 */
export function goModule(text: string): JsonRecord {
  let module: string | undefined;
  const requires = new Map<string, string>();
  const replaced = new Map<string, string | undefined>();
  let block: string | undefined;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.replace(/\/\/.*$/, '').trim();
    if (line === '') continue;
    if (block !== undefined) {
      if (line === ')') block = undefined;
      else directive(block, line.split(/\s+/));
      continue;
    }
    const [verb = '', ...rest] = line.split(/\s+/);
    if (rest[0] === '(' && rest.length === 1) block = verb;
    else directive(verb, rest);
  }
  function directive(verb: string, words: readonly string[]): void {
    const [first, second] = words.map(unquote);
    if (verb === 'module' && first) module = first;
    else if (verb === 'require' && first && second && READ_MODULES.has(first)) requires.set(first, second);
    else if (verb === 'replace') {
      const arrow = words.indexOf('=>');
      const from = unquote(words[0] ?? '');
      if (arrow < 0 || !READ_MODULES.has(from)) return;
      // `old [version] => new version` pins a version; `=> ../local/dir` leaves it unknown.
      replaced.set(from, words[arrow + 2] === undefined ? undefined : unquote(words[arrow + 2]!));
    }
  }
  for (const [from, version] of replaced) {
    if (version === undefined) requires.delete(from);
    else if (requires.has(from)) requires.set(from, version);
  }
  return {
    kind: GO_MODULE_KIND,
    ...(module !== undefined ? { module } : {}),
    requires: Object.fromEntries(requires),
  };
}

function unquote(word: string): string {
  return word.replace(/^["`](.*)["`]$/, '$1');
}

/**
 * A module version as Go writes it, `v` and a semantic version (`v0.24.1`, the pseudo-version
 * `v0.9.8-0.20211019125639-aa2b3e68a52d`, `v2.0.0+incompatible`); undefined for anything else.
 */
export function moduleVersion(version: string): semver.SemVer | undefined {
  return version.startsWith('v') ? (semver.parse(version) ?? undefined) : undefined;
}

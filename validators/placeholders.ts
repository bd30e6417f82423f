/**
 * The placeholders that a deploy step fills into a manifest: `${NAME}` of envsubst and clusterctl
 * (with any of envsubst's operators after the name: `:=default`, `:-default`, `:""`, `#prefix`),
 * and the four forms of build scripts that fill manifests in with sed: `@NAME@` (autoconf's,
 * `image: @IMAGE@:@VERSION@`, and Maven resource filtering's dotted `@project.version@`), `__NAME__`
 * (`namespace: __NAMESPACE__`), `%NAME%` (`repoURL: %REPO_NAME%`) and `{NAME}` (`name:
 * {APP_NAME}-deployment`, a Jenkins pipeline's), upper case only, so an e-mail address, a Python
 * `__init__`, a percentage or a flow mapping `{a}` is never one. A value that holds one is not known
 * until deploy time.
 */
export const ENVSUBST_VARIABLE = /\$\{[A-Za-z_][A-Za-z0-9_]*(?:[^A-Za-z0-9_}][^}]*)?\}/;
export const AT_PLACEHOLDER = /@[A-Z][A-Z0-9_]*(?:\.[A-Z][A-Z0-9_]*)*@/;
export const UNDERSCORE_PLACEHOLDER = /__[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*__/;
export const PERCENT_PLACEHOLDER = /%[A-Z][A-Z0-9_]*%/;
export const BRACE_PLACEHOLDER = /\{[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\}/;
/**
 * Python's printf-style named placeholder, `%(name)s`, which a template filled with `text % values`
 * holds (jsonnet's `importstr ... % {}` too: `namespace: %(prometheusNamespace)s`). `%` cannot
 * begin a plain YAML value, so such a file does not parse until filled.
 */
export const PYTHON_FORMAT_PLACEHOLDER = /%\([A-Za-z_][A-Za-z0-9_]*\)[sdr]/;

/** True when the value holds a placeholder that is filled in at deploy time. */
export function holdsPlaceholder(value: string): boolean {
  return (
    ENVSUBST_VARIABLE.test(value) ||
    AT_PLACEHOLDER.test(value) ||
    UNDERSCORE_PLACEHOLDER.test(value) ||
    PERCENT_PLACEHOLDER.test(value) ||
    BRACE_PLACEHOLDER.test(value) ||
    PYTHON_FORMAT_PLACEHOLDER.test(value)
  );
}

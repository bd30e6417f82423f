/**
 * U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR, which some editors and copy-paste from web
 * pages leave at the end of lines (`command:` + U+2028). go-yaml, with which kubectl, kustomize and
 * Flux read YAML, takes them for line breaks, as YAML 1.1 does (yaml.v2 yamlprivateh.go, is_break);
 * js-yaml, which follows YAML 1.2, takes them for content and refuses the file. Returns the text
 * with each written as a space, which js-yaml reads as go-yaml reads the original where they end a
 * line (the only place they are met), and keeps every line where it was; undefined when the text
 * has none.
 */
export function unicodeLineBreaksRead(text: string): string | undefined {
  return UNICODE_LINE_BREAK.test(text) ? text.replace(UNICODE_LINE_BREAKS, ' ') : undefined;
}

const UNICODE_LINE_BREAK = /[\u2028\u2029]/;
const UNICODE_LINE_BREAKS = /[\u2028\u2029]/g;

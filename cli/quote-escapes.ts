import { YAMLException } from 'js-yaml';

/**
 * `\'` in a double-quoted scalar (`"-d \'{\"user\": \"foo\"}\'"`), an escape YAML 1.2 does not
 * have. go-yaml, with which kubectl, kustomize and Flux read YAML, takes it for a single quote
 * (yaml.v2 scannerc.go, yaml_parser_scan_flow_scalar); js-yaml refuses the file ("unknown escape
 * sequence"). Returns the text with the escape js-yaml stopped at written as the quote alone, which
 * js-yaml reads as go-yaml reads the original (one character fewer on that line, none on others);
 * undefined when the error is another. js-yaml stops at the first such escape, so a text with
 * several is rewritten once per parse.
 */
export function escapedSingleQuoteRead(text: string, error: unknown): string | undefined {
  if (!(error instanceof YAMLException) || error.reason !== UNKNOWN_ESCAPE || !error.mark) return undefined;
  // The mark is the character after the backslash.
  const at = error.mark.position;
  if (text[at] !== "'" || text[at - 1] !== '\\') return undefined;
  return text.slice(0, at - 1) + text.slice(at);
}

const UNKNOWN_ESCAPE = 'unknown escape sequence';

import { YAMLException } from 'js-yaml';

/**
 * An alias written as a mapping key with no space before its colon, `*app:` (bjw-s app-template
 * HelmReleases write `controllers: {*app: ...}` under `name: &app actual`). go-yaml, with which
 * kubectl, kustomize and Flux read YAML, ends the alias name at the colon, so the key is the
 * anchored value; js-yaml takes the colon into the name and finds no anchor `app:`. Returns the
 * text with a space before each such colon, which js-yaml reads as go-yaml reads the original (a
 * space on a line moves nothing to another line); undefined when the error is another.
 */
export function aliasKeysSpaced(text: string, error: unknown): string | undefined {
  if (!(error instanceof YAMLException) || !UNIDENTIFIED_ALIAS_WITH_COLON.test(error.reason)) return undefined;
  const spaced = text.replace(ALIAS_KEY, '$1 :');
  return spaced === text ? undefined : spaced;
}

const UNIDENTIFIED_ALIAS_WITH_COLON = /^unidentified alias ".+:"$/;
/** `*name:` where a key begins (after indentation, or a sequence item's `- `), then a space or the line's end. */
const ALIAS_KEY = /^([ \t]*(?:-[ \t]+)?\*[^\s,[\]{}:]+):(?=[ \t]|\r?$)/gm;

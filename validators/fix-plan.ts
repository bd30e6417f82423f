/**
 * One change to an object, by field path from the object's root; or, with `in`, from the root of
 * the YAML document held in the string at `in` (a kind `kubeadmConfigPatches` entry, a ConfigMap value).
 */
export type FixEdit =
  | {
      readonly op: 'set';
      readonly path: ReadonlyArray<string | number>;
      readonly value: unknown;
      /** A key the mapping lacks is written before its first key, not after its last (apiVersion leads an object). */
      readonly first?: boolean;
      /**
       * A comment line written above a key the edit adds to a block mapping, so the change explains
       * itself where a reviewer reads the diff (none in flow mappings or JSON, nor on a replaced value).
       */
      readonly comment?: string;
      readonly in?: ReadonlyArray<string | number>;
    }
  | {
      /** The key at `path` is renamed `to`, its value and everything around it kept (a misspelt `piVersion`). */
      readonly op: 'rename';
      readonly path: ReadonlyArray<string | number>;
      readonly to: string;
      readonly in?: ReadonlyArray<string | number>;
    }
  | {
      readonly op: 'delete';
      readonly path: ReadonlyArray<string | number>;
      readonly in?: ReadonlyArray<string | number>;
    }
  | {
      /**
       * The document holds objects run together for want of `---` lines: a line is written where
       * each after the first begins, at each later writing of the top-level key `path` names (`kind`).
       */
      readonly op: 'split';
      readonly path: ReadonlyArray<string | number>;
      readonly in?: ReadonlyArray<string | number>;
    }
  | {
      /**
       * The mapping at `path` less its last segment writes that key more than once (invalid YAML):
       * every writing but the last is removed, keeping the value the API server applied.
       */
      readonly op: 'keep-last';
      readonly path: ReadonlyArray<string | number>;
      readonly in?: ReadonlyArray<string | number>;
    };

/**
 * What can be done about a finding mechanically: the edits, or why no edit is safe. `precondition`
 * marks edits that need something outside the file to be true before the objects are applied (nodes
 * carry a label): reports show it beside the edits, `ballast fix` prints it after applying them, and
 * `ballast fix --no-require-node-labels` leaves such edits out.
 */
export type FixPlan =
  { readonly edits: readonly FixEdit[]; readonly precondition?: string } | { readonly unsafe: string };

import { ObjectIndex, IndexedObject } from './object-index';
import { KubeVersion } from './kube-version';
import { Severity } from './finding';

/** The Kubernetes versions a rule applies to. Both bounds are optional. */
export interface KubernetesVersionRange {
  /** First version the rule applies to (inclusive), e.g. `1.28`. */
  readonly from?: string;
  /** First version the rule no longer applies to (exclusive), e.g. `1.33`. */
  readonly before?: string;
}

/** What a rule reports: the engine adds the rule id, object, source and suppression. */
export interface RuleReport {
  /** The field the problem is in: `spec.template.spec.volumes[1].nfs`. */
  readonly path: string;
  readonly message: string;
  /** Overrides the rule's severity for this finding (e.g. deprecated vs removed). */
  readonly severity?: Severity;
  /** Overrides the rule's fix where the finding calls for a more specific one. */
  readonly fix?: string;
}

/** What a rule's check sees. */
export interface RuleContext {
  readonly index: ObjectIndex;
  readonly kubernetesVersion: KubeVersion;
  /**
   * The parameters set for this rule in the options (`parameters.<rule id>`), already checked
   * against its schema; the rule reads them, defaults filled in, with `parametersOf`.
   */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** The ids of every rule the engine knows (for rules about suppression annotations). */
  readonly knownRuleIds: ReadonlySet<string>;
  report(object: IndexedObject, report: RuleReport): void;
}

/**
 * A rule's parameters (kube-linter's params, ESLint's `meta.schema`): a zod object schema whose
 * every field has a description and a default, so a team sets only what differs in its cluster.
 * Declared by what ballast uses of it, so the published types do not pull in zod's.
 */
export interface RuleParameterSchema {
  parse(value: unknown): Record<string, unknown>;
  safeParse(value: unknown):
    | { readonly success: true; readonly data: Record<string, unknown> }
    | {
        readonly success: false;
        readonly error: {
          readonly issues: ReadonlyArray<{ readonly path: readonly PropertyKey[]; readonly message: string }>;
        };
      };
  readonly shape: Readonly<Record<string, { readonly description?: string | undefined }>>;
}

/** Bad and good YAML for the rule catalogue and `ballast explain`. */
export interface RuleExample {
  readonly bad: string;
  readonly good: string;
}

/**
 * A rule is data plus one small check function (kube-linter / ESLint style): adding a rule never
 * touches the engine.
 */
export interface Rule {
  /** Kebab-case, self-explaining, at most 54 characters so `ballast.dev/suppress.<id>` is a valid annotation key. */
  readonly id: string;
  readonly severity: Severity;
  readonly kubernetesVersions?: KubernetesVersionRange;
  /**
   * The kinds the rule looks at (its scope), as `ballast explain` and the catalogue print them:
   * `['Deployment', 'PersistentVolumeClaim']`. Normalized forms count under the kind they came
   * from (a kubeadm InitConfiguration that carries kubelet flags is listed as such).
   */
  readonly scope: readonly string[];
  /** One line: what the rule finds. */
  readonly summary: string;
  /** The incident it prevents and the fact behind it. */
  readonly why: string;
  /** What to do. */
  readonly fix: string;
  readonly example?: RuleExample;
  /**
   * An opt-in check: it runs only when switched on (`rules: {id: on}`). For hardening checks that
   * flag what upstream manifests ship as standard, where a default-on warning would be noise.
   * @default false
   */
  readonly optIn?: boolean;
  /** What a team may adapt to its cluster, with defaults: `parameters.<id>` in the options. @default - none */
  readonly parameters?: RuleParameterSchema;
  /**
   * The rule judges values that a kustomize patch sets whole (a flag's value list, a lock name),
   * and what it finds there does not depend on what the patch leaves to its base: its findings on
   * a patch alone hold for every object the patch produces, so it also runs on patch files, which
   * the other rules never see (a patch is a fragment of its base). Not so for Recycle, whose
   * severity depends on the volume type the base may hold.
   * @default false
   */
  readonly judgesPatches?: boolean;
  /** Looks at the whole object set through the index and reports findings. */
  check(context: RuleContext): void;
}

/** True when the rule applies to the target version. */
export function appliesTo(rule: Rule, version: KubeVersion): boolean {
  const range = rule.kubernetesVersions;
  if (!range) return true;
  if (range.from !== undefined && version.before(range.from)) return false;
  if (range.before !== undefined && version.atLeast(range.before)) return false;
  return true;
}

/** The rule's parameters as the options set them, defaults filled in and typed by its schema. */
export function parametersOf<T>(context: RuleContext, schema: { parse(value: unknown): T }): T {
  return schema.parse(context.parameters);
}

import * as semver from 'semver';

/** The oldest Kubernetes minor whose behaviour the rules know (Leases became the default lock in 1.20). */
export const OLDEST_KNOWN_KUBERNETES_VERSION = '1.20';

/**
 * The newest Kubernetes minor whose behaviour the rules know, and the default target: the facts
 * the rules encode (kubelet `--config-dir` GA, StatefulSet `maxUnavailable` beta) go up to 1.35.
 */
export const NEWEST_KNOWN_KUBERNETES_VERSION = '1.35';

/** The target unless one is set: the newest minor the rules know. */
export const DEFAULT_KUBERNETES_VERSION = NEWEST_KNOWN_KUBERNETES_VERSION;

/** The environment variable every door reads for the target version. */
export const KUBERNETES_VERSION_ENV = 'BALLAST_KUBERNETES_VERSION';

const VERSION_FORM = /^(\d+)\.(0|[1-9]\d*)$/;

/**
 * A Kubernetes minor version (`1.27`), compared as a version, never as a string or a float
 * (`1.3` < `1.27`).
 */
export class KubeVersion {
  /**
   * Parses exactly `MAJOR.MINOR` (`1.31`). The rules' own version bounds use this; a user's target
   * goes through {@link KubeVersion.target}, which also checks the rules know the version.
   * @throws Error naming the value and the expected form.
   */
  public static parse(text: string): KubeVersion {
    const match = VERSION_FORM.exec(text);
    if (!match) throw new Error(versionFormProblem(text));
    return new KubeVersion(Number(match[1]), Number(match[2]));
  }

  /**
   * Parses a target version given by a user: a `"MAJOR.MINOR"` string of a version the rules know.
   * A number is refused with a hint to quote it (YAML reads `1.30` as the number 1.3).
   * @throws Error saying what was given and what to write instead.
   */
  public static target(value: unknown): KubeVersion {
    const problem = targetVersionProblem(value);
    if (problem !== undefined) throw new Error(problem);
    return KubeVersion.parse(value as string);
  }

  private readonly semver: semver.SemVer;

  private constructor(
    public readonly major: number,
    public readonly minor: number,
  ) {
    this.semver = new semver.SemVer(`${major}.${minor}.0`);
  }

  /** True when this version is `other` or newer. */
  public atLeast(other: string | KubeVersion): boolean {
    return semver.gte(this.semver, KubeVersion.from(other).semver);
  }

  /** True when this version is older than `other`. */
  public before(other: string | KubeVersion): boolean {
    return !this.atLeast(other);
  }

  /** The next minor (`1.31` for `1.30`). */
  public nextMinor(): KubeVersion {
    return new KubeVersion(this.major, this.minor + 1);
  }

  public toString(): string {
    return `${this.major}.${this.minor}`;
  }

  private static from(value: string | KubeVersion): KubeVersion {
    return typeof value === 'string' ? KubeVersion.parse(value) : value;
  }
}

/**
 * What is wrong with `value` as a target version, or undefined when it is a `"MAJOR.MINOR"`
 * string of a version the rules know. Shared by every door so the words are the same everywhere.
 */
export function targetVersionProblem(value: unknown): string | undefined {
  if (typeof value === 'number') {
    return `Kubernetes version ${String(value)} is a number: quote it ("1.30", not 1.30, which YAML and JavaScript read as 1.3)`;
  }
  if (typeof value !== 'string')
    return `Kubernetes version must be a "MAJOR.MINOR" string such as "${DEFAULT_KUBERNETES_VERSION}"`;
  if (!VERSION_FORM.test(value)) return versionFormProblem(value);
  const version = KubeVersion.parse(value);
  if (
    version.before(OLDEST_KNOWN_KUBERNETES_VERSION) ||
    version.atLeast(KubeVersion.parse(NEWEST_KNOWN_KUBERNETES_VERSION).nextMinor())
  ) {
    return `Kubernetes version "${value}" is not one the rules know: use ${OLDEST_KNOWN_KUBERNETES_VERSION} to ${NEWEST_KNOWN_KUBERNETES_VERSION}`;
  }
  return undefined;
}

function versionFormProblem(text: string): string {
  return `invalid Kubernetes version "${text}": write it as MAJOR.MINOR, for example "1.31" (no "v", no patch)`;
}

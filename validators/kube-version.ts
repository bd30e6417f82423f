import * as semver from 'semver';

/** The Kubernetes API level ballast targets unless told otherwise: that of cdk8s-plus-27. */
export const DEFAULT_KUBERNETES_VERSION = '1.27';

/**
 * A Kubernetes minor version (`1.27`), compared as a version, never as a string or a float
 * (`1.3` < `1.27`).
 */
export class KubeVersion {
  /**
   * Parses `1.27`, `v1.27` or `1.27.3` (the patch is ignored: API changes land in minors).
   * @throws Error naming the value and the expected form.
   */
  public static parse(text: string): KubeVersion {
    const match = /^v?(\d+)\.(\d+)(?:\.\d+)?$/.exec(String(text).trim());
    if (!match) {
      throw new Error(
        `invalid Kubernetes version "${text}": write it as MAJOR.MINOR, for example "1.27" or "1.31"`,
      );
    }
    return new KubeVersion(Number(match[1]), Number(match[2]));
  }

  private readonly semver: semver.SemVer;

  private constructor(public readonly major: number, public readonly minor: number) {
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

  public toString(): string {
    return `${this.major}.${this.minor}`;
  }

  private static from(value: string | KubeVersion): KubeVersion {
    return typeof value === 'string' ? KubeVersion.parse(value) : value;
  }
}

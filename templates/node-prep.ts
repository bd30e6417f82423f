import * as fs from 'fs';
import * as path from 'path';

/**
 * Renders the input of templates/node-prep.sh. Structural types only: templates/ imports nothing
 * of ballast, the stack passes the typed declarations of validators/node-prerequisites.ts.
 */
export interface NodePrepPrerequisite {
  readonly name: string;
  /** Packages per OS family. */
  readonly packages: {
    readonly debian: readonly string[];
    readonly rhel: readonly string[];
    readonly suse: readonly string[];
  };
  /** Absolute host paths; the prerequisite is satisfied when any one is an executable file. */
  readonly verifyExecutables: readonly string[];
}

/** The environment variable node-prep.sh reads its prerequisites from. */
export const NODE_PREP_PREREQUISITES_ENV = 'BALLAST_PREREQUISITES';

const NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
const PACKAGE = /^[A-Za-z0-9][A-Za-z0-9.+_:-]*$/;
const EXECUTABLE = /^\/[A-Za-z0-9._/+-]+$/;

/**
 * One line per prerequisite, `name|debian packages|rhel packages|suse packages|verify executables`,
 * the format node-prep.sh parses. Throws on any value that could break that format or the shell.
 */
export function renderNodePrepPrerequisites(prerequisites: readonly NodePrepPrerequisite[]): string {
  if (prerequisites.length === 0) throw new Error('node-prep needs at least one prerequisite');
  return prerequisites
    .map((prerequisite) => {
      const check = (value: string, pattern: RegExp, what: string) => {
        if (!pattern.test(value))
          throw new Error(
            `node prerequisite ${JSON.stringify(prerequisite.name)}: invalid ${what} ${JSON.stringify(value)}`,
          );
        return value;
      };
      const list = (values: readonly string[], pattern: RegExp, what: string) => {
        if (values.length === 0) throw new Error(`node prerequisite ${JSON.stringify(prerequisite.name)}: no ${what}`);
        return values.map((value) => check(value, pattern, what)).join(' ');
      };
      return [
        check(prerequisite.name, NAME, 'name'),
        list(prerequisite.packages.debian, PACKAGE, 'debian package'),
        list(prerequisite.packages.rhel, PACKAGE, 'rhel package'),
        list(prerequisite.packages.suse, PACKAGE, 'suse package'),
        list(prerequisite.verifyExecutables, EXECUTABLE, 'verify executable'),
      ].join('|');
    })
    .join('\n');
}

/**
 * Where node-prep.sh is: beside this file in the source tree, `../../templates` from the
 * compiled `lib/templates` (the package ships `templates/**\/*.sh`).
 */
export function nodePrepScriptPath(): string {
  const candidates = [
    path.join(__dirname, 'node-prep.sh'),
    path.resolve(__dirname, '..', '..', 'templates', 'node-prep.sh'),
  ];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new Error(`node-prep.sh not found (looked in ${candidates.join(', ')})`);
  return found;
}

/** The text of node-prep.sh. */
export function nodePrepScript(): string {
  return fs.readFileSync(nodePrepScriptPath(), 'utf8');
}

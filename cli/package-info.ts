import * as fs from 'fs';
import * as path from 'path';

/** The npm name ballast is published and installed under (`ballast` itself belongs to someone else). */
export const PACKAGE_NAME = 'ballast-k8s';

/** Where ballast's source and docs live (package.json `repository`): SARIF links each rule's entry of docs/rules.md here. */
export const REPOSITORY_URL = 'https://github.com/ballast-k8s/ballast';

/**
 * ballast's own package.json, found by walking up from this file: the CLI runs from `cli/` under
 * ts-node and from `lib/cli/` when compiled, so a fixed relative path would be wrong in one of them.
 */
export function packageVersion(): string {
  let dir = __dirname;
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      const pkg = JSON.parse(fs.readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === PACKAGE_NAME && pkg.version) return pkg.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

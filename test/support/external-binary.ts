import { spawnSync } from 'child_process';

const checked = new Map<string, boolean>();

function isInstalled(binary: string): boolean {
  let installed = checked.get(binary);
  if (installed === undefined) {
    installed = spawnSync(binary, ['--version'], { stdio: 'ignore' }).error === undefined;
    checked.set(binary, installed);
  }
  return installed;
}

/**
 * `test`, when `binary` is on PATH; otherwise the test is skipped with the reason printed, so a
 * newcomer's `npm test` passes without it. Under `CI=true` a missing binary fails the run instead:
 * CI installs it (.ci/run), and a check that silently stopped running would be worse than none.
 */
export function testWithBinary(binary: string, install: string): jest.It {
  if (isInstalled(binary)) return test;
  if (process.env.CI === 'true') {
    throw new Error(`${binary} is required when CI=true (${install}); .ci/run installs it`);
  }
  process.stderr.write(`skipping the ${binary} tests: ${binary} is not installed (${install})\n`);
  return test.skip;
}

/** How to get shellcheck on the machines this project runs on. */
export const SHELLCHECK_INSTALL = 'apt-get install -y shellcheck';

/** How to get systemd-analyze (part of systemd) on Debian and Ubuntu. */
export const SYSTEMD_ANALYZE_INSTALL = 'apt-get install -y systemd';

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const created: string[] = [];

// Registered when a test file first imports this module (at its top level, where jest takes hooks):
// every directory a test made is removed when its file ends, passed or failed, so a run leaves
// nothing in the machine's temp directory.
afterAll(() => {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A new empty directory under the OS temp directory, removed when the test file ends. */
export function scratchDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  created.push(dir);
  return dir;
}

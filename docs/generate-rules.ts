import * as fs from 'fs';
import * as path from 'path';
import { renderCatalogue } from '../cli/rule-catalogue';
import { ALL_RULES } from '../validators';

/**
 * `npm run docs` writes docs/rules.md from the rule data; `npm run docs:check` (CI) exits 1 when
 * the file in the repository no longer matches the rules, so the catalogue never drifts.
 */
export const RULES_DOC = path.join(__dirname, 'rules.md');

if (require.main === module) {
  const expected = renderCatalogue(ALL_RULES);
  const relative = path.relative(process.cwd(), RULES_DOC);
  if (process.argv.includes('--check')) {
    const actual = fs.existsSync(RULES_DOC) ? fs.readFileSync(RULES_DOC, 'utf8') : '';
    if (actual !== expected) {
      console.error(`${relative} does not match the rule data: run \`npm run docs\` and commit the result`);
      process.exit(1);
    }
    console.log(`${relative} matches the rule data (${ALL_RULES.length} rules)`);
  } else {
    fs.writeFileSync(RULES_DOC, expected);
    console.log(`wrote ${relative} (${ALL_RULES.length} rules)`);
  }
}

import * as fs from 'fs';
import * as path from 'path';
import { renderCatalogue } from '../cli/rule-catalogue';
import { ALL_RULES } from '../validators';

/** `npm run docs`: writes docs/rules.md from the rule data (test/docs checks it is current). */
export const RULES_DOC = path.join(__dirname, 'rules.md');

if (require.main === module) {
  fs.writeFileSync(RULES_DOC, renderCatalogue(ALL_RULES));
  console.log(`wrote ${path.relative(process.cwd(), RULES_DOC)} (${ALL_RULES.length} rules)`);
}

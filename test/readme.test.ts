import * as fs from 'fs';
import * as path from 'path';
import { ALL_RULES } from '../validators';

/** The README is what a new platform engineer reads first: it must not drift from the code. */
describe('README', () => {
  const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');

  test('lists every rule with its severity in the catalogue table', () => {
    for (const rule of ALL_RULES) {
      expect(readme).toMatch(new RegExp(`^\\| \`${rule.id}\` \\| [^|]*${rule.severity}`, 'm'));
    }
  });

  test('says how many rules there are, as many as the engine has', () => {
    expect(readme).toContain(`**validators** (${ALL_RULES.length} rules,`);
  });

  test('gives the two set-up commands and they exist as npm scripts', () => {
    expect(readme).toContain('npm ci && npm run synth');
    expect(readme).toContain('npm test');
    const scripts = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).scripts;
    for (const script of ['synth', 'test', 'build', 'typecheck', 'bench', 'docs', 'ballast'])
      expect(scripts).toHaveProperty(script);
  });
});

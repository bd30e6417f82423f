import { ALL_RULES } from '../../validators';
import { YAML_SYNTAX_ERROR } from '../../cli/load-manifests';
import { readLabels, readSources } from './evaluate';

// The labels are data the evaluation (npm run real-world) trusts: malformed rows would skew it silently.
describe('the real-world set (LABELS.tsv, SOURCES.tsv)', () => {
  const labels = readLabels();
  const sources = readSources();
  // The loader's own finding counts too: a file kubectl refuses (a duplicated key) must be refused.
  const ruleIds = new Set([...ALL_RULES.map((rule) => rule.id), YAML_SYNTAX_ERROR]);

  test('covers at least 30 public repositories, each pinned to a commit', () => {
    const repositories = new Set(labels.map((file) => file.repository));
    expect(repositories.size).toBeGreaterThanOrEqual(30);
    for (const repository of repositories) {
      const source = sources.find((candidate) => candidate.repository === repository);
      expect(source?.commit).toMatch(/^[0-9a-f]{40}$/);
    }
  });

  test('every file has a git blob id, a reason, a set, and a fail label names the rule expected to refuse it', () => {
    for (const file of labels) {
      expect(file.blob).toMatch(/^[0-9a-f]{40}$/);
      expect(file.why).not.toBe('');
      // `tuning` was measured while the rules were shaped; each `held-out-N` round was labelled blind.
      expect(file.set).toMatch(/^(tuning|held-out(-[1-9][0-9]*)?)$/);
      if (file.label === 'fail') expect(file.rules.length).toBeGreaterThan(0);
      for (const rule of file.rules) expect(ruleIds).toContain(rule);
    }
  });

  test('labels each file once', () => {
    const keys = labels.map((file) => `${file.repository}/${file.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

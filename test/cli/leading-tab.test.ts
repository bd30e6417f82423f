import { lint } from '../../cli/lint-command';
import { tempTree } from './run-cli';

const SERVICE = ['apiVersion: v1', 'kind: Service', 'metadata: {name: cassandra}', 'spec: {clusterIP: None}', ''];

describe('ballast lint: a tab before the first token, which js-yaml skips and kubectl refuses', () => {
  // Sheenam3/Room-booking cassandra/service.yaml (held-out-102): the file begins with `\t---`;
  // kubectl: "error converting YAML to JSON: yaml: found character that cannot start any token".
  test.each([
    ['a tab before the first document marker', ['\t---', ...SERVICE], 1],
    ['a tab after blank lines', ['', '  ', '\t---', ...SERVICE], 3],
    ['a tab before a comment', ['# cassandra', '\t# the service', ...SERVICE], 2],
  ])('real world: refuses %s, at its line', (_, lines, line) => {
    const tree = tempTree({ 'service.yaml': lines.join('\n') });
    try {
      const result = lint([tree.dir], { cwd: tree.dir });
      expect(result.findings.map((f) => [f.rule, f.severity, f.line])).toEqual([['yaml-syntax-error', 'error', line]]);
      expect(result.findings[0]?.message).toContain('found character that cannot start any token');
    } finally {
      tree.cleanup();
    }
  });

  test.each([
    ['a comment', ['# the cassandra service', ...SERVICE]],
    [
      'a token, with tabs in a later block scalar',
      [...SERVICE.slice(0, 3), 'data:', '  run.sh: |', '\t# indented by tab', ''],
    ],
    ['JSON, which allows tabs', ['\t{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "cassandra"}}']],
    ['a document marker', ['---', ...SERVICE]],
  ])('passes a first line that begins with %s', (_, lines) => {
    const tree = tempTree({ 'service.yaml': lines.join('\n') });
    try {
      expect(lint([tree.dir], { cwd: tree.dir }).findings).toEqual([]);
    } finally {
      tree.cleanup();
    }
  });
});

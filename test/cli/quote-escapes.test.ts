import { lint } from '../../cli/lint-command';
import { loadManifests } from '../../cli/load-manifests';
import { tempTree } from './run-cli';

// ibm-garage-ref-storefront/storefront-tekton scripts/customers/jobs/create-user.yaml (held-out-306):
// a curl Job whose double-quoted argument writes `\'`. go-yaml (kubectl, kustomize) reads it as a
// single quote and applies the Job; js-yaml alone refuses the escape.
const JOB = [
  'apiVersion: batch/v1',
  'kind: Job',
  'metadata:',
  '  name: create-user',
  'spec:',
  '  template:',
  '    spec:',
  '      restartPolicy: Never',
  '      containers:',
  '        - name: create-user',
  '          image: curlimages/curl',
  '          command: ["/usr/bin/curl"]',
  '          args:',
  '            - "-X POST"',
  '            - "-d \\\'{\\"username\\": \\"foo\\"}\\\'"',
  '            - "-H \\\'Accept: */*\\\'"',
  '',
].join('\n');

describe("ballast lint: `\\'` in a double-quoted scalar", () => {
  test('real world: reads it as a single quote, as kubectl does, with no finding', () => {
    const tree = tempTree({ 'create-user.yaml': JOB });
    try {
      expect(lint([tree.dir], { cwd: tree.dir }).findings).toEqual([]);
      const [loaded] = loadManifests([tree.dir]).objects;
      const [container] = (
        loaded?.object as { spec: { template: { spec: { containers: Array<{ args: string[] }> } } } }
      ).spec.template.spec.containers;
      expect(container?.args).toEqual(['-X POST', `-d '{"username": "foo"}'`, `-H 'Accept: */*'`]);
    } finally {
      tree.cleanup();
    }
  });

  test('an escape go-yaml refuses too is still a syntax error at its line', () => {
    const tree = tempTree({ 'job.yaml': JOB.replace('"-X POST"', '"-X \\q POST"') });
    try {
      expect(lint([tree.dir], { cwd: tree.dir }).findings.map((finding) => [finding.rule, finding.line])).toEqual([
        ['yaml-syntax-error', 14],
      ]);
    } finally {
      tree.cleanup();
    }
  });

  test('a backslash and quote outside double quotes stay as written', () => {
    const tree = tempTree({
      'cm.yaml': "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  plain: it\\'s\n  single: 'a\\'\n",
    });
    try {
      expect(lint([tree.dir], { cwd: tree.dir }).findings).toEqual([]);
      expect(loadManifests([tree.dir]).objects[0]?.object.data).toEqual({ plain: "it\\'s", single: 'a\\' });
    } finally {
      tree.cleanup();
    }
  });
});

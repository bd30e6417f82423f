import * as fs from 'fs';
import * as path from 'path';
import { runFix } from '../../cli/fix-command';
import { tempTree } from './run-cli';

const SILENT = { out: () => undefined, err: () => undefined };

/** A kubeadm JoinConfiguration whose eviction-hard is written with `quote` around it. */
const joinConfiguration = (name: string, value: string) =>
  [
    'apiVersion: kubeadm.k8s.io/v1beta3',
    'kind: JoinConfiguration',
    `metadata: {name: ${name}}`,
    'nodeRegistration:',
    '  kubeletExtraArgs:',
    `    eviction-hard: ${value}`,
    '',
  ].join('\n');

describe('ballast fix keeps the quoting of the values it rewrites', () => {
  test.each([
    ['single-quoted', "'nodefs.available<5%'", "'nodefs.available<5%,memory.available<100Mi,"],
    ['double-quoted', '"nodefs.available<5%"', '"nodefs.available<5%,memory.available<100Mi,'],
    ['plain', 'nodefs.available<5%', 'nodefs.available<5%,memory.available<100Mi,'],
  ])('a %s eviction-hard stays so when the missing signals are added', (_style, written, expected) => {
    const { dir, cleanup } = tempTree({ 'join.yaml': joinConfiguration('node', written) });
    try {
      runFix([dir], { kubeVersion: '1.31' }, SILENT);
      const line = fs
        .readFileSync(path.join(dir, 'join.yaml'), 'utf8')
        .split('\n')
        .find((candidate) => candidate.includes('eviction-hard'));
      expect(line).toContain(`eviction-hard: ${expected}`);
    } finally {
      cleanup();
    }
  });
});

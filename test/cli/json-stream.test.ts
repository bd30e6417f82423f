import * as fs from 'fs';
import * as path from 'path';
import { lint } from '../../cli/lint-command';
import { runFix } from '../../cli/fix-command';
import { tempTree } from './run-cli';

const SILENT = { out: () => undefined, err: () => undefined };

/**
 * CrunchyData/crunchy-containers examples/kube (held-out-10): JSON objects written one after
 * another, which kubectl applies one by one. Here a Service, then a PersistentVolume of a block
 * CSI driver with the Recycle policy.
 */
const STREAM = `{
    "kind": "Service",
    "apiVersion": "v1",
    "metadata": {"name": "pgpool"},
    "spec": {"ports": [{"port": 5432}], "selector": {"name": "pgpool"}}
}

{
    "kind": "PersistentVolume",
    "apiVersion": "v1",
    "metadata": {"name": "backrest-pv"},
    "spec": {
        "capacity": {"storage": "1Gi"},
        "accessModes": ["ReadWriteMany"],
        "persistentVolumeReclaimPolicy": "Recycle",
        "csi": {"driver": "ebs.csi.aws.com", "volumeHandle": "vol-1"}
    }
}
`;

const rows = (dir: string) => {
  const result = lint([dir], { cwd: dir });
  return {
    objects: result.summary.objects,
    findings: result.findings.map((f) => [f.rule, f.severity, f.path, f.line]),
  };
};

describe('ballast lint: a JSON stream (objects one after another) is read as kubectl reads it', () => {
  test('real world: each object is checked, at its own line, with no syntax error', () => {
    const { dir, cleanup } = tempTree({ 'pgpool.json': STREAM });
    try {
      expect(rows(dir)).toEqual({
        objects: 2,
        findings: [['recycle-reclaim-policy', 'error', 'spec.persistentVolumeReclaimPolicy', 15]],
      });
    } finally {
      cleanup();
    }
  });

  test('`ballast fix` edits the object in place, keeping the JSON quoting; a second run changes nothing', () => {
    const { dir, cleanup } = tempTree({ 'pgpool.json': STREAM });
    const file = path.join(dir, 'pgpool.json');
    try {
      runFix([dir], {}, SILENT);
      const fixed = fs.readFileSync(file, 'utf8');
      expect(fixed).toBe(STREAM.replace('"Recycle"', '"Retain"'));
      runFix([dir], {}, SILENT);
      expect(fs.readFileSync(file, 'utf8')).toBe(fixed);
    } finally {
      cleanup();
    }
  });

  test('text between the objects, or an object that does not parse, is still a syntax error', () => {
    const { dir, cleanup } = tempTree({
      'words.json': STREAM.replace('\n\n{', '\nnot json\n{'),
      'broken.json': STREAM.replace('"Recycle",', '"Recycle" oops,'),
    });
    try {
      expect(rows(dir).findings.map(([rule]) => rule)).toEqual(['yaml-syntax-error', 'yaml-syntax-error']);
    } finally {
      cleanup();
    }
  });
});

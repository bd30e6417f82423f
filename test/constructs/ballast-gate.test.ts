import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, Chart, Include, JsonPatch } from 'cdk8s';
import { BallastGate, BallastGateProps, suppressionAnnotation, synthOrExit } from '../../index';
import { scratchDir } from '../support/scratch-dir';
import { testApp } from '../support/test-app';

const namespacedVolume = (name: string, annotations: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name, namespace: 'shop', annotations },
  spec: {
    capacity: { storage: '1Gi' },
    accessModes: ['ReadWriteOnce'],
    csi: { driver: 'rbd.csi.ceph.com', volumeHandle: name },
  },
});

/** An NFS volume on prepared nodes whose only finding is the warning for its deprecated Recycle policy. */
const RECYCLED_NFS_VOLUME = {
  persistentVolumeReclaimPolicy: 'Recycle',
  mountOptions: ['nfsvers=4.1'],
  nfs: { server: 'nfs.example', path: '/srv/scratch' },
  nodeAffinity: {
    required: {
      nodeSelectorTerms: [
        { matchExpressions: [{ key: 'node.ballast.dev/nfs-client', operator: 'In', values: ['installed'] }] },
      ],
    },
  },
};

describe('the synth gate', () => {
  test('refuses a raw ApiObject PV with a namespace, naming rule, construct path and field path; writes nothing', () => {
    const outdir = scratchDir('ballast-gate');
    const app = new App({ outdir });
    new BallastGate(app, { log: () => undefined });
    const chart = new Chart(app, 'storage');
    new ApiObject(chart, 'pv', namespacedVolume('data'));

    expect(() => app.synth()).toThrow(
      /error persistent-volume-with-namespace: PersistentVolume shop\/data at storage\/pv, field metadata\.namespace: .*Fix: Remove metadata\.namespace/,
    );
    expect(fs.readdirSync(outdir)).toEqual([]);
  });

  test('lists every error across charts and Included YAML, not the first only', () => {
    const dir = scratchDir('ballast-gate');
    const included = path.join(dir, 'vendor.yaml');
    fs.writeFileSync(
      included,
      [
        'apiVersion: v1',
        'kind: PersistentVolume',
        'metadata: {name: vendored, namespace: x}',
        'spec: {persistentVolumeReclaimPolicy: Recycle, rbd: {image: a, monitors: [m]}}',
      ].join('\n'),
    );
    const app = new App({ outdir: dir });
    new BallastGate(app, { log: () => undefined });
    new ApiObject(new Chart(app, 'one'), 'pv', namespacedVolume('first'));
    new Include(new Chart(app, 'two'), 'vendor', { url: included });

    let message = '';
    try {
      app.synth();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('4 error(s)');
    expect(message).toContain('PersistentVolume shop/first at one/pv, field metadata.namespace');
    expect(message).toContain(
      'PersistentVolume x/vendored at two/vendor/vendored-persistentvolume-x, field metadata.namespace',
    );
    expect(message).toContain('error recycle-reclaim-policy: PersistentVolume x/vendored');
  });

  test('synthesizes when the only finding is suppressed with a justification, and prints it', () => {
    const lines: string[] = [];
    const app = testApp();
    new BallastGate(app, { log: (line) => lines.push(line) });
    new ApiObject(
      new Chart(app, 'storage'),
      'pv',
      namespacedVolume('data', {
        [suppressionAnnotation('persistent-volume-with-namespace')]: 'vendor manifest, namespace is ignored anyway',
      }),
    );
    expect(() => app.synth()).not.toThrow();
    expect(lines).toEqual([
      expect.stringMatching(/^ballast: suppressed error persistent-volume-with-namespace: .*vendor manifest/),
    ]);
  });

  test('prints warnings once per synth and does not block', () => {
    const lines: string[] = [];
    const app = testApp();
    new BallastGate(app, { log: (line) => lines.push(line) });
    new ApiObject(new Chart(app, 'a'), 'pv', {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'scratch' },
      spec: RECYCLED_NFS_VOLUME,
    });
    new Chart(app, 'b');
    expect(() => app.synth()).not.toThrow();
    expect(lines.filter((line) => line.includes('recycle-reclaim-policy'))).toHaveLength(1);
  });

  test('sees JSON patches applied after construction', () => {
    const app = testApp();
    new BallastGate(app, { log: () => undefined });
    const pv = new ApiObject(new Chart(app, 'a'), 'pv', {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'p' },
    });
    const chart = Chart.of(pv);
    expect(() => chart.toJson()).not.toThrow();
    pv.addJsonPatch(JsonPatch.add('/metadata/namespace', 'x'));
    expect(() => chart.toJson()).toThrow(/persistent-volume-with-namespace/);
  });

  test('is installed once per app and checks its props at once', () => {
    const app = testApp();
    expect(BallastGate.of(new Chart(app, 'c'))).toBe(BallastGate.of(app));
    expect(() => new BallastGate(app)).toThrow(/already has a BallastGate/);
    // Every problem at once, in the words of every other door.
    const bad = {
      kubernetesVersion: '1.x',
      rules: { nope: 'off' },
      disabledRules: ['x'],
    } as unknown as BallastGateProps;
    expect(() => new BallastGate(testApp(), bad)).toThrow(
      /disabledRules: unknown option.*\n.*kubernetesVersion: invalid Kubernetes version "1\.x".*\n.*rules\.nope: unknown rule id/,
    );
  });

  test('within synthOrExit, warnings print once per synth across charts, and each synth prints them again', () => {
    const lines: string[] = [];
    const app = testApp();
    new BallastGate(app, { log: (line) => lines.push(line) });
    new ApiObject(new Chart(app, 'a'), 'pv', {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'scratch' },
      spec: RECYCLED_NFS_VOLUME,
    });
    new Chart(app, 'b');
    new Chart(app, 'c');
    synthOrExit(app);
    synthOrExit(app);
    expect(lines.filter((line) => line.includes('recycle-reclaim-policy'))).toHaveLength(2);
  });

  test('sees a change made between two synths of the same app', () => {
    const outdir = scratchDir('ballast-gate');
    const app = new App({ outdir });
    new BallastGate(app, { log: () => undefined });
    const pv = new ApiObject(new Chart(app, 'a'), 'pv', {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'p' },
    });
    const codes: number[] = [];
    synthOrExit(app, {
      exit: (code) => {
        codes.push(code);
      },
      print: () => undefined,
    });
    pv.addJsonPatch(JsonPatch.add('/metadata/namespace', 'x'));
    synthOrExit(app, {
      exit: (code) => {
        codes.push(code);
      },
      print: () => undefined,
    });
    expect(codes).toEqual([1]);
    expect(() => app.synthYaml()).toThrow(/persistent-volume-with-namespace/);
  });
});

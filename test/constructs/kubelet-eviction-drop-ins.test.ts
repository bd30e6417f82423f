import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { BallastGate, BallastPropError, KubeletEvictionDropIns, synthOrExit, writeNodeFiles } from '../../constructs';
import { scratchDir } from '../support/scratch-dir';

function synthTo(build: (app: App) => void): { outdir: string; files: string[] } {
  const outdir = scratchDir('ballast-eviction');
  const app = new App({ outdir });
  build(app);
  synthOrExit(app);
  const files: string[] = [];
  const walk = (dir: string) =>
    fs.readdirSync(dir, { withFileTypes: true }).forEach((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push(path.relative(outdir, full));
    });
  walk(outdir);
  return { outdir, files: files.sort() };
}

describe('KubeletEvictionDropIns', () => {
  test("writes the pool's files under <outdir>/nodes/<pool>/ at synth, for the gate's version", () => {
    const { outdir, files } = synthTo((app) => {
      new BallastGate(app, { kubernetesVersion: '1.30' });
      new KubeletEvictionDropIns(app, 'workers', { pool: 'workers', hard: { 'memory.available': '500Mi' } });
    });
    expect(files).toEqual([
      'nodes/workers/config-dir/etc/kubernetes/kubelet.conf.d/50-ballast-eviction.conf',
      'nodes/workers/config-fragment.txt',
    ]);
    const dropIn = fs.readFileSync(path.join(outdir, files[0] ?? ''), 'utf8');
    expect(dropIn).toContain('  imagefs.inodesFree: "5%"');
    expect(dropIn).toContain('  memory.available: "500Mi"');
  });

  test('renders the kubelet.service drop-in for older kubelets, and never a .yaml file', () => {
    const { files } = synthTo((app) => {
      new BallastGate(app, { kubernetesVersion: '1.27' });
      new KubeletEvictionDropIns(app, 'old', { pool: 'old', renderings: ['systemd-drop-in', 'config-fragment'] });
    });
    expect(files).toEqual([
      'nodes/old/config-fragment.txt',
      'nodes/old/systemd-drop-in/etc/systemd/system/kubelet.service.d/20-ballast-eviction.conf',
    ]);
    expect(files.filter((file) => /\.ya?ml$/.test(file))).toEqual([]);
  });

  test('removes files a previous synth wrote that are no longer rendered', () => {
    const outdir = scratchDir('ballast-eviction');
    fs.mkdirSync(path.join(outdir, 'nodes/pool'), { recursive: true });
    fs.writeFileSync(path.join(outdir, 'nodes/pool/stale.conf'), 'x');
    const app = new App({ outdir });
    new BallastGate(app, { kubernetesVersion: '1.30' });
    new KubeletEvictionDropIns(app, 'pool', { pool: 'pool', renderings: ['config-fragment'] });
    synthOrExit(app);
    expect(fs.readdirSync(path.join(outdir, 'nodes/pool'))).toEqual(['config-fragment.txt']);
  });

  test('an app that calls app.synth() itself writes the node files with writeNodeFiles(app)', () => {
    const outdir = scratchDir('ballast-eviction');
    const app = new App({ outdir });
    new BallastGate(app, { kubernetesVersion: '1.30' });
    new KubeletEvictionDropIns(app, 'pool', { pool: 'pool', renderings: ['config-fragment'] });
    app.synth();
    expect(fs.existsSync(path.join(outdir, 'nodes'))).toBe(false);
    writeNodeFiles(app);
    expect(fs.readdirSync(path.join(outdir, 'nodes/pool'))).toEqual(['config-fragment.txt']);
  });

  test('refuses bad props at construction', () => {
    const app = new App();
    new BallastGate(app, { kubernetesVersion: '1.27' });
    expect(() => new KubeletEvictionDropIns(app, 'a', { pool: 'Bad Pool' })).toThrow(BallastPropError);
    expect(() => new KubeletEvictionDropIns(app, 'b', { pool: 'b', renderings: ['config-dir'] })).toThrow(
      'alpha before 1.30',
    );
    expect(() => new KubeletEvictionDropIns(app, 'c', { pool: 'c', hard: { 'nodefs.available': '1%' } })).toThrow(
      BallastPropError,
    );
  });
});

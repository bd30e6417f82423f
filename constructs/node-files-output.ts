import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';

const OUTPUT_ID = 'BallastNodeFilesOutput';
const OUTPUT_SYMBOL = Symbol.for('ballast.NodeFilesOutput');

/**
 * Writes node-side files (drop-ins, config fragments) into the app's outdir when `App.synth()`
 * runs, after cdk8s validated and wrote the manifests: a refused synth writes nothing. Each
 * directory registered is emptied first, so files a change removed do not linger.
 *
 * Nothing written here may end in .yaml/.yml: cdk8s-cli treats every such file under the outdir
 * as a manifest.
 */
export class NodeFilesOutput extends Construct {
  /** The app's output, created on first use. */
  public static of(scope: IConstruct): NodeFilesOutput {
    const existing = scope.node.root.node.tryFindChild(OUTPUT_ID);
    if (existing && OUTPUT_SYMBOL in existing) return existing as unknown as NodeFilesOutput;
    return new NodeFilesOutput(scope.node.root as Construct);
  }

  private readonly directories = new Map<string, () => ReadonlyMap<string, string>>();

  private constructor(root: Construct) {
    super(root, OUTPUT_ID);
    Object.defineProperty(this, OUTPUT_SYMBOL, { value: true });
    if (!(root instanceof App)) return;
    const app = root as App;
    const synth = app.synth.bind(app);
    app.synth = () => {
      synth();
      this.write(app.outdir);
    };
  }

  /**
   * Registers a directory (relative to the outdir) whose files are produced at synth time.
   * @param files file path relative to `directory` -> content
   */
  public addDirectory(directory: string, files: () => ReadonlyMap<string, string>): void {
    const normalized = path.posix.normalize(directory);
    if (normalized.startsWith('..') || path.posix.isAbsolute(normalized)) throw new Error(`node files directory must stay inside the outdir: ${directory}`);
    if (this.directories.has(normalized)) throw new Error(`node files directory ${normalized} is already used by another construct`);
    this.directories.set(normalized, files);
  }

  private write(outdir: string): void {
    for (const [directory, produce] of [...this.directories].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const base = path.join(outdir, directory);
      fs.rmSync(base, { recursive: true, force: true });
      for (const [relative, content] of [...produce()].sort(([a], [b]) => (a < b ? -1 : 1))) {
        if (/\.ya?ml$/i.test(relative)) throw new Error(`${relative}: node files must not end in .yaml/.yml (cdk8s-cli reads those as manifests)`);
        const file = path.join(base, relative);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, content);
      }
    }
  }
}

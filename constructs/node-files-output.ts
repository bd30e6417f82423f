import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';

const OUTPUT_ID = 'BallastNodeFilesOutput';
const OUTPUT_SYMBOL = Symbol.for('ballast.NodeFilesOutput');

/**
 * Node-side files (drop-ins, config fragments) for the app's outdir. cdk8s has no hook after it
 * writes the manifests, and ballast replaces none of its methods, so the files are written by
 * `synthOrExit(app)` right after a successful `app.synth()` (a refused synth writes nothing); an
 * app that calls `app.synth()` itself calls `writeNodeFiles(app)` after it. Each directory
 * registered is emptied first, so files a change removed do not linger.
 *
 * Nothing written here may end in .yaml/.yml: cdk8s-cli treats every such file under the outdir
 * as a manifest.
 */
export class NodeFilesOutput extends Construct {
  /** The app's output, created on first use. */
  public static of(scope: IConstruct): NodeFilesOutput {
    const existing = scope.node.root.node.tryFindChild(OUTPUT_ID);
    if (existing && OUTPUT_SYMBOL in existing) return existing as unknown as NodeFilesOutput;
    return new NodeFilesOutput(scope.node.root);
  }

  private readonly directories = new Map<string, () => ReadonlyMap<string, string>>();

  /** The app's output if any construct registered node files, else undefined. */
  public static find(scope: IConstruct): NodeFilesOutput | undefined {
    const existing = scope.node.root.node.tryFindChild(OUTPUT_ID);
    return existing && OUTPUT_SYMBOL in existing ? (existing as unknown as NodeFilesOutput) : undefined;
  }

  private constructor(root: Construct) {
    super(root, OUTPUT_ID);
    Object.defineProperty(this, OUTPUT_SYMBOL, { value: true });
  }

  /** The directories (relative to the outdir) this output owns. */
  public get directoryNames(): readonly string[] {
    return [...this.directories.keys()].sort();
  }

  /**
   * Registers a directory (relative to the outdir) whose files are produced at synth time.
   * @param files file path relative to `directory` -> content
   */
  public addDirectory(directory: string, files: () => ReadonlyMap<string, string>): void {
    const normalized = path.posix.normalize(directory);
    if (normalized.startsWith('..') || path.posix.isAbsolute(normalized))
      throw new Error(`node files directory must stay inside the outdir: ${directory}`);
    if (this.directories.has(normalized))
      throw new Error(`node files directory ${normalized} is already used by another construct`);
    this.directories.set(normalized, files);
  }

  /** Writes every registered directory under `outdir`, emptying each first. */
  public write(outdir: string): void {
    for (const [directory, produce] of [...this.directories].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const base = path.join(outdir, directory);
      fs.rmSync(base, { recursive: true, force: true });
      for (const [relative, content] of [...produce()].sort(([a], [b]) => (a < b ? -1 : 1))) {
        if (/\.ya?ml$/i.test(relative))
          throw new Error(`${relative}: node files must not end in .yaml/.yml (cdk8s-cli reads those as manifests)`);
        const file = path.join(base, relative);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, content);
      }
    }
  }
}

/** Writes the node files of the app's constructs into its outdir. Call it after `app.synth()` (synthOrExit does). */
export function writeNodeFiles(app: App): void {
  NodeFilesOutput.find(app)?.write(app.outdir);
}

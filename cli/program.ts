import { Command, CommanderError, Option } from 'commander';
import { DEFAULT_KUBERNETES_VERSION, KUBERNETES_VERSION_ENV } from '../validators/kube-version';
import { CliIo } from './cli-io';
import type { FixFlags } from './fix-command';
import type { LintFlags } from './lint-run';
import { packageVersion } from './package-info';
import { explainRule, listRules } from './rules-command';

/**
 * Runs the `ballast` command with `argv` (without node and script) and resolves to the exit
 * code: 0 success, 1 findings, 2 usage or tool problem.
 */
export async function run(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let exitCode = 0;
  const program = new Command('ballast')
    .description('Validate Kubernetes manifests against the stateful-workload rules of ballast.')
    .version(packageVersion(), '-v, --version')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(run `ballast --help` for usage)');

  program
    .command('rules')
    .description('list every rule with its severity and summary')
    .action(() => {
      io.out(listRules());
    });

  program
    .command('explain')
    .description('print why a rule exists, how to fix its findings, an example and how to suppress it')
    .argument('<rule>', 'rule id, as printed by `ballast rules`')
    .action((ruleId: string) => {
      const text = explainRule(ruleId);
      if (text === undefined) {
        io.err(`ballast: unknown rule "${ruleId}"; run \`ballast rules\` for the list\n`);
        exitCode = 2;
      } else {
        io.out(text);
      }
    });

  program
    .command('lint')
    .description('check Kubernetes YAML/JSON files, directories (recursively) and systemd drop-ins; `-` reads stdin')
    .argument('[paths...]', 'files and directories to lint (default: the current directory)')
    .addOption(
      new Option('-f, --format <format>', 'output format').choices(['text', 'json', 'sarif', 'junit']).default('text'),
    )
    .option(
      '--kube-version <X.Y>',
      `target Kubernetes version, "MAJOR.MINOR" (default: $${KUBERNETES_VERSION_ENV}, else kubernetesVersion in the config, else the version the input declares (kubeadm, Cluster API, control-plane static pods), else ${DEFAULT_KUBERNETES_VERSION})`,
    )
    .option('--max-file-size <MiB>', 'the largest file (or standard input) read, in MiB (default: 64)')
    .addOption(
      new Option('--fail-on <level>', 'exit 1 on an error, on a warning too, or never (for a SARIF upload step)')
        .choices(['error', 'warning', 'never'])
        .default('error'),
    )
    .option(
      '--upgrade-to <X.Y>',
      'report only what becomes an error when the cluster moves from the target version to X.Y',
    )
    .option(
      '--suppress-all',
      `record every finding in the suppressions file (${'ballast-suppressions.json'}): later runs report them as baselined and do not fail on them`,
    )
    .option('--prune-suppressions', 'remove from the suppressions file the entries no finding matches any more')
    .option('--suppressions-file <file>', 'the suppressions file (default: ./ballast-suppressions.json)')
    .option(
      '-c, --config <file>',
      `rules on/off, severity overrides and settings (default: ./.ballast.yaml if present)`,
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 no unsuppressed error, 1 at least one error finding, 2 usage or tool problem.',
    )
    .action((paths: string[], options: LintFlags) => {
      // Loaded on use: `ballast rules` and `--help` stay fast.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { runLint } = require('./lint-run') as typeof import('./lint-run');
      exitCode = runLint(paths, options, io, packageVersion());
    });

  program
    .command('fix')
    .description(
      'apply the safe fixes of the findings in place (comments, order and quoting kept); a file without one is never touched',
    )
    .argument('[paths...]', 'files and directories to fix (default: the current directory)')
    .option('--dry-run', 'print a unified diff and write nothing')
    .option(
      '--require-node-labels',
      'apply those fixes to warnings too (Talos or OpenShift nodes, which may have the NFS client already); by default, errors only',
    )
    .option(
      '--no-require-node-labels',
      'leave out the fixes that make in-tree NFS volumes require the label of nodes with the NFS client (node.ballast.dev/nfs-client=installed); by default they are applied to errors, and the nodes must be labelled before the objects are applied, or their pods stay Pending',
    )
    .option('--kube-version <X.Y>', 'target Kubernetes version, as for lint')
    .option('-c, --config <file>', 'configuration, as for lint (default: ./.ballast.yaml if present)')
    .addHelpText(
      'after',
      '\nExit codes: as lint, after fixing: 0 no error remains, 1 errors remain (each listed with why it has no safe fix), 2 usage problem.',
    )
    .action((paths: string[], options: FixFlags) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { runFix } = require('./fix-command') as typeof import('./fix-command');
      exitCode = runFix(paths.length > 0 ? paths : ['.'], options, io);
    });

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version "fail" with exit code 0.
      return error.exitCode === 0 ? 0 : 2;
    }
    throw error;
  }
  return exitCode;
}

const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  colour: process.stdout.isTTY === true && process.env.NO_COLOR === undefined,
};

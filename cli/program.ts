import { Command, CommanderError } from 'commander';
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

  program.command('rules')
    .description('list every rule with its severity and summary')
    .action(() => { io.out(listRules()); });

  program.command('explain')
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

/** Where the CLI writes: stdout and stderr of the process, or buffers in tests. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

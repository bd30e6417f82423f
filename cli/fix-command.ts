import * as fs from 'fs';
import { createTwoFilesPatch } from 'diff';
import { terminalSafe } from '../validators';
import type { CliIo } from './cli-io';
import { lint } from './lint-command';
import type { LintFinding } from './lint-result';
import { STDIN_NAME } from './input-files';
import { YAML_SYNTAX_ERROR } from './load-manifests';
import { applyReplacements, textReplacements } from './text-edits';
import { decodeText, encodeText } from './text-encoding';
import { UsageError } from './usage-error';

/** The flags of `ballast fix`. */
export interface FixFlags {
  readonly kubeVersion?: string;
  readonly config?: string;
  readonly dryRun?: boolean;
  /**
   * The fixes that make pods require a node label (the NFS client's), which need the nodes labelled
   * before the objects are applied: `false` (`--no-require-node-labels`) leaves them out, `true`
   * (`--require-node-labels`) applies them to warnings too. @default on errors only
   */
  readonly requireNodeLabels?: boolean;
}

/**
 * `ballast fix`: applies the machine-applicable fixes of the unsuppressed findings in place, as the
 * smallest text replacements (comments, key order, quoting and separators untouched), then lints
 * again. A file without a fixable finding is never written. With `--dry-run`, prints a unified diff
 * and writes nothing. Exit codes as lint: 0 no error remains, 1 errors remain, 2 usage problem.
 */
export function runFix(paths: readonly string[], flags: FixFlags, io: CliIo): number {
  try {
    if (paths.includes('-')) throw new UsageError('fix rewrites files in place: give paths, not `-`');
    const options = { kubeVersion: flags.kubeVersion, config: flags.config };
    const before = lint(paths, {
      ...options,
      ...(flags.requireNodeLabels !== undefined ? { requireNodeLabels: flags.requireNodeLabels } : {}),
    });
    const byFile = new Map<string, LintFinding[]>();
    const unfixable: LintFinding[] = [];
    for (const finding of before.findings) {
      if (finding.suppressed || finding.file === null || finding.file === STDIN_NAME) continue;
      if (finding.edits.length === 0 || !finding.location) {
        if (finding.severity === 'error' || finding.noFix !== undefined) unfixable.push(finding);
        continue;
      }
      const list = byFile.get(finding.file) ?? [];
      list.push(finding);
      byFile.set(finding.file, list);
    }

    // A template that is not YAML until rendered; `{{` inside strings of valid YAML (ClusterClass
    // patches, Prometheus rules) is content, and the file is edited like any other.
    const unparsed = new Set(before.findings.filter((f) => f.rule === YAML_SYNTAX_ERROR).map((f) => f.file));
    let fixed = 0;
    let changedFiles = 0;
    // What the applied fixes need done before the objects are applied, with how many need it.
    const preconditions = new Map<string, number>();
    for (const [file, findings] of byFile) {
      // Read and written back in its own encoding: a UTF-16 file (PowerShell's) stays UTF-16.
      const { text, encoding } = decodeText(fs.readFileSync(file));
      if (text.includes('{{') && unparsed.has(file)) {
        io.err(
          `ballast fix: ${terminalSafe(file)}: a Helm template ({{ ... }}): not rewritten; fix the chart's templates or values, then lint the rendered output\n`,
        );
        unfixable.push(...findings);
        continue;
      }
      // Each finding's edits are planned on the text the fixes before it left: edits name fields,
      // not offsets, so two fixes of one mapping (a key and its neighbour, both written twice) both
      // apply in one run, and a fix another one already made changes nothing.
      let after = text;
      for (const finding of findings) {
        const planned = textReplacements(after, finding.location!, finding.edits);
        if ('unsafe' in planned) {
          unfixable.push({ ...finding, noFix: planned.unsafe });
          continue;
        }
        after = applyReplacements(after, planned.replacements);
        fixed++;
        if (finding.precondition !== undefined)
          preconditions.set(finding.precondition, (preconditions.get(finding.precondition) ?? 0) + 1);
      }
      if (after === text) continue;
      changedFiles++;
      if (flags.dryRun) io.out(createTwoFilesPatch(file, file, text, after, '', '', { context: 3 }));
      else fs.writeFileSync(file, encodeText(after, encoding));
    }

    const waiting = unfixable.filter((finding) => finding.waitsForNodeLabels === true).length;
    for (const finding of unfixable) {
      io.err(
        `ballast fix: ${terminalSafe(`${finding.file ?? ''}:${finding.line ?? '-'} ${finding.rule}`)}: not fixed: ${terminalSafe(finding.noFix ?? 'no machine-applicable fix: the change needs a person')}\n`,
      );
    }
    io.err(
      `ballast fix: ${fixed} finding(s) fixed in ${changedFiles} file(s)${flags.dryRun ? ' (dry run: nothing written)' : ''}; ` +
        `${unfixable.length - waiting} left for a person` +
        (waiting > 0 ? `; ${waiting} node-label fix(es) not applied (each says why)` : '') +
        '\n',
    );
    for (const [precondition, count] of preconditions) {
      io.err(`ballast fix: before applying ${count} of these fix(es): ${terminalSafe(precondition)}\n`);
    }
    if (flags.dryRun) return before.summary.errors > 0 ? 1 : 0;
    const after = lint(paths, options);
    return after.summary.errors > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`ballast fix: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

/**
 * Reads a systemd unit drop-in (`/etc/systemd/system/<unit>.d/*.conf`) into a plain object the
 * rule engine can validate like any Kubernetes object. Only what rules need is kept: the
 * [Service] directives that decide what a service runs with (Environment=, EnvironmentFile=,
 * ExecStart=), each with its 1-based line so a finding's field path (`service.execStart[1]`)
 * points at a line of the file.
 *
 * Syntax follows systemd.syntax(7): `#`/`;` comments, a trailing backslash continues a line,
 * an empty assignment (`ExecStart=`) resets the list, `%%` is a literal percent sign.
 */

export const SYSTEMD_DROP_IN_API_VERSION = 'ballast.dev/v1';
export const SYSTEMD_DROP_IN_KIND = 'SystemdDropIn';

/** One `Environment=` assignment, or a reset (`Environment=` with nothing after it). */
export interface SystemdEnvironmentEntry {
  readonly line: number;
  /** True for an empty `Environment=`, which clears what earlier files set. */
  readonly reset?: boolean;
  readonly name?: string;
  readonly value?: string;
}

/** One `EnvironmentFile=`; a leading `-` makes a missing file acceptable. */
export interface SystemdEnvironmentFileEntry {
  readonly line: number;
  readonly reset?: boolean;
  readonly path?: string;
  readonly optional?: boolean;
}

/** One `ExecStart=`; an empty command is the reset line that must precede a replacement. */
export interface SystemdExecStartEntry {
  readonly line: number;
  readonly reset?: boolean;
  /** The command line as written, specifiers (`%%`) resolved. */
  readonly command?: string;
  /** The command split into words the way systemd splits it (quotes removed). */
  readonly argv?: readonly string[];
}

export interface SystemdDropInObject {
  readonly apiVersion: typeof SYSTEMD_DROP_IN_API_VERSION;
  readonly kind: typeof SYSTEMD_DROP_IN_KIND;
  readonly metadata: { readonly name: string };
  /** The unit the drop-in belongs to, when the path names it (`kubelet.service.d/` -> `kubelet.service`). */
  readonly unit?: string;
  /** Every section header seen, in order. */
  readonly sections: readonly string[];
  readonly service: {
    readonly environment: readonly SystemdEnvironmentEntry[];
    readonly environmentFiles: readonly SystemdEnvironmentFileEntry[];
    readonly execStart: readonly SystemdExecStartEntry[];
  };
  /** Lines systemd would ignore with a warning (no `=`, outside any section). */
  readonly problems: ReadonlyArray<{ readonly line: number; readonly message: string }>;
}

/**
 * True when the text reads as a systemd unit file: its first line that is not blank or a comment is
 * a `[Section]` header. Only the leading lines are looked at, whatever the size of the text (a
 * directory walk asks this of every file it reads).
 */
export function isSystemdUnitText(text: string): boolean {
  const content = String(text);
  let start = content.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (start < content.length) {
    const newline = content.indexOf('\n', start);
    const end = newline < 0 ? content.length : newline;
    const line = content.slice(start, end).trim();
    if (line !== '' && !line.startsWith('#') && !line.startsWith(';')) return SECTION_HEADER.test(line);
    start = end + 1;
  }
  return false;
}

/** A unit file's section header: `[Service]`, `[Unit]`, `[X-Custom]`. */
const SECTION_HEADER = /^\[[A-Za-z][A-Za-z0-9 ._-]*\]$/;

/** Parses a drop-in. Never throws: what cannot be read is reported in `problems`. */
export function parseSystemdDropIn(text: string, fileName: string): SystemdDropInObject {
  const environment: SystemdEnvironmentEntry[] = [];
  const environmentFiles: SystemdEnvironmentFileEntry[] = [];
  const execStart: SystemdExecStartEntry[] = [];
  const sections: string[] = [];
  const problems: Array<{ line: number; message: string }> = [];
  let section: string | undefined;

  for (const { line, content } of logicalLines(typeof text === 'string' ? text : '')) {
    const header = /^\[([^\]]+)\]$/.exec(content);
    if (header) {
      section = header[1] ?? '';
      sections.push(section);
      continue;
    }
    const equals = content.indexOf('=');
    if (equals < 0) {
      problems.push({ line, message: `missing "=": "${content}" is not a directive` });
      continue;
    }
    if (section === undefined) {
      problems.push({ line, message: 'assignment outside of any section' });
      continue;
    }
    if (section !== 'Service') continue;
    const key = content.slice(0, equals).trim();
    const value = content.slice(equals + 1).trim();
    if (key === 'Environment') {
      if (value === '') environment.push({ line, reset: true });
      for (const word of splitWords(value).words) {
        const assignment = word.indexOf('=');
        if (assignment <= 0) {
          problems.push({ line, message: `invalid environment assignment "${word}"` });
          continue;
        }
        environment.push({ line, name: word.slice(0, assignment), value: resolvePercent(word.slice(assignment + 1)) });
      }
    } else if (key === 'EnvironmentFile') {
      if (value === '') environmentFiles.push({ line, reset: true });
      else environmentFiles.push({ line, path: value.replace(/^-/, ''), optional: value.startsWith('-') });
    } else if (key === 'ExecStart') {
      if (value === '') {
        execStart.push({ line, reset: true });
      } else {
        const command = resolvePercent(value);
        const split = splitWords(command);
        if (split.unterminated) problems.push({ line, message: 'unterminated quote in ExecStart=' });
        execStart.push({ line, command, argv: split.words });
      }
    }
  }

  const name = typeof fileName === 'string' ? fileName.split(/[\\/]/).pop() || fileName : 'drop-in.conf';
  const unitMatch = typeof fileName === 'string' ? /([^\\/]+)\.d[\\/][^\\/]+$/.exec(fileName) : null;
  return {
    apiVersion: SYSTEMD_DROP_IN_API_VERSION,
    kind: SYSTEMD_DROP_IN_KIND,
    metadata: { name },
    ...(unitMatch ? { unit: unitMatch[1] } : {}),
    sections,
    service: { environment, environmentFiles, execStart },
    problems,
  };
}

/** Joins continuation lines and drops comments, keeping the line each directive starts on. */
function logicalLines(text: string): Array<{ line: number; content: string }> {
  const result: Array<{ line: number; content: string }> = [];
  const lines = text.split(/\r?\n/);
  let pending: { line: number; content: string } | undefined;
  lines.forEach((raw, index) => {
    const trimmed = raw.trim();
    if (!pending && (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';'))) return;
    if (pending && (trimmed.startsWith('#') || trimmed.startsWith(';'))) return;
    const continued = trimmed.endsWith('\\');
    const piece = continued ? trimmed.slice(0, -1) : trimmed;
    pending = pending
      ? { line: pending.line, content: `${pending.content} ${piece}` }
      : { line: index + 1, content: piece };
    if (!continued) {
      result.push({ line: pending.line, content: pending.content.trim() });
      pending = undefined;
    }
  });
  if (pending) result.push({ line: pending.line, content: pending.content.trim() });
  return result;
}

/** `%%` is systemd's literal percent; other specifiers are left as written. */
function resolvePercent(value: string): string {
  return value.replace(/%%/g, '%');
}

/** Splits on whitespace, honouring double and single quotes and backslash escapes (systemd.syntax). */
export function splitWords(value: string): { words: string[]; unterminated: boolean } {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: string | undefined;
  for (let i = 0; i < value.length; i++) {
    const char = value.charAt(i);
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && i + 1 < value.length) current += value[++i];
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else if (char === '\\' && i + 1 < value.length) {
      current += value[++i];
      inWord = true;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return { words, unterminated: quote !== undefined };
}

type Segment = string | number;

/**
 * Follows a field path through flow-style YAML or JSON (`{kind: Pod, spec: {volumes: [...]}}`)
 * line by line, without building anything. Returns the 0-based line of the deepest segment found
 * and whether all were found; undefined where the text uses something it does not follow
 * (anchors, aliases, tags, complex keys), so the caller can fall back to a full parser.
 */
export function locateInFlow(
  lines: readonly string[],
  startLine: number,
  startColumn: number,
  endLine: number,
  segments: readonly Segment[],
): { line: number; complete: boolean } | undefined {
  const scanner = new FlowScanner(lines, startLine, startColumn, endLine);
  try {
    scanner.skipSpace();
    let line = scanner.line;
    for (const segment of segments) {
      const found = scanner.enter(segment);
      if (found === undefined) return { line, complete: false };
      line = found;
    }
    return { line, complete: true };
  } catch (error) {
    if (error === UNSUPPORTED) return undefined;
    throw error;
  }
}

const UNSUPPORTED = new Error('flow syntax not followed');

class FlowScanner {
  constructor(
    private readonly lines: readonly string[],
    public line: number,
    private column: number,
    private readonly endLine: number,
  ) {}

  private peek(): string | undefined {
    return this.line < this.endLine ? ((this.lines[this.line] ?? '')[this.column] ?? '\n') : undefined;
  }

  private advance(): void {
    if (this.column >= (this.lines[this.line] ?? '').length) {
      this.line++;
      this.column = 0;
    } else {
      this.column++;
    }
  }

  public skipSpace(): void {
    for (;;) {
      const char = this.peek();
      if (char === ' ' || char === '\t' || char === '\r' || char === '\n') {
        this.advance();
      } else if (char === '#') {
        this.line++;
        this.column = 0;
      } else {
        return;
      }
    }
  }

  /** At a value: moves into the child `segment` and returns its line, or undefined when absent. */
  public enter(segment: Segment): number | undefined {
    this.skipSpace();
    const open = this.peek();
    if (open === '&' || open === '*' || open === '!' || open === '?') throw UNSUPPORTED;
    if (open === '{' && typeof segment === 'string') return this.enterMap(segment);
    if (open === '[' && typeof segment === 'number') return this.enterList(segment);
    return undefined;
  }

  private enterMap(key: string): number | undefined {
    this.advance();
    for (;;) {
      this.skipSpace();
      if (this.peek() === '}' || this.peek() === undefined) return undefined;
      const keyLine = this.line;
      const name = this.readScalar(true);
      this.skipSpace();
      if (this.peek() !== ':') throw UNSUPPORTED;
      this.advance();
      if (name === key) {
        this.skipSpace();
        return keyLine;
      }
      this.skipValue();
      this.skipSpace();
      if (this.peek() === ',') this.advance();
    }
  }

  private enterList(index: number): number | undefined {
    this.advance();
    for (let i = 0; ; i++) {
      this.skipSpace();
      if (this.peek() === ']' || this.peek() === undefined) return undefined;
      if (i === index) return this.line;
      this.skipValue();
      this.skipSpace();
      if (this.peek() === ',') this.advance();
    }
  }

  private skipValue(): void {
    this.skipSpace();
    const char = this.peek();
    if (char === '&' || char === '*' || char === '!' || char === '?') throw UNSUPPORTED;
    if (char === '{' || char === '[') {
      const close = char === '{' ? '}' : ']';
      this.advance();
      for (;;) {
        this.skipSpace();
        const next = this.peek();
        if (next === undefined) throw UNSUPPORTED;
        if (next === close) {
          this.advance();
          return;
        }
        if (next === ',' || next === ':') this.advance();
        else this.skipValue();
      }
    }
    this.readScalar(false);
  }

  /** A quoted or plain scalar; plain ones end at a flow indicator (and, for keys, at `: `). */
  private readScalar(isKey: boolean): string {
    const quote = this.peek();
    if (quote === '"' || quote === "'") {
      let text = '';
      this.advance();
      for (;;) {
        const char = this.peek();
        if (char === undefined) throw UNSUPPORTED;
        this.advance();
        if (char === quote) {
          if (quote === "'" && this.peek() === "'") {
            text += "'";
            this.advance();
            continue;
          }
          return text;
        }
        if (char === '\\' && quote === '"') {
          const escaped = this.peek();
          this.advance();
          text += escaped === '"' || escaped === '\\' || escaped === '/' ? escaped : `\\${escaped}`;
        } else {
          text += char === '\n' ? ' ' : char;
        }
      }
    }
    let text = '';
    for (;;) {
      const char = this.peek();
      if (char === undefined || char === ',' || char === '}' || char === ']' || char === '{' || char === '[') break;
      if (char === ':' && isKey) {
        const next = (this.lines[this.line] ?? '')[this.column + 1];
        if (
          next === undefined ||
          next === ' ' ||
          next === '\t' ||
          next === ',' ||
          next === '"' ||
          next === '[' ||
          next === '{'
        )
          break;
      }
      if (char === '#' && (text === '' || text.endsWith(' '))) break;
      text += char === '\n' ? ' ' : char;
      this.advance();
    }
    return text.trim();
  }
}

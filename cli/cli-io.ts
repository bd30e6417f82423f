/** Where the CLI writes: stdout and stderr of the process, or buffers in tests. */
export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Colour in text output: only when stdout is a terminal. @default false */
  readonly colour?: boolean;
  /** Standard input, for the path `-`. @default the process's stdin */
  readonly readStdin?: () => string;
}

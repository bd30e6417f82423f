/** A user mistake (a missing path, a bad option or config): the CLI prints the message and exits 2. */
export class UsageError extends Error {}

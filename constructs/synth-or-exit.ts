import { App } from 'cdk8s';

/**
 * Synthesizes the app; when the gate (or any cdk8s validation) refuses, prints the findings
 * without a stack trace and exits 1. Use it as the last line of a cdk8s app's `main.ts`.
 */
export function synthOrExit(app: App): void {
  try {
    app.synth();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!message.startsWith('Validation failed')) throw error;
    console.error(message);
    process.exit(1);
  }
}

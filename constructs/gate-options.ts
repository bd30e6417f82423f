import { BallastOptions, BallastOptionsError, ResolvedOptions, resolveOptions } from '../validators';
import { markUserError } from './prop-error';

/**
 * Parses the gate's options with the one options schema every door uses, so the same mistake gets
 * the same words here as in `.ballast.yaml`, the cdk8s plugin and the policy pack: every problem at
 * once, with its field path. A user's mistake: `synthOrExit` prints it without a stack trace.
 * @throws BallastOptionsError listing each invalid option
 */
export function parseGateOptions(options: BallastOptions, where: string): ResolvedOptions {
  try {
    return resolveOptions(options, { where: `the props of ${where}` });
  } catch (error) {
    if (error instanceof BallastOptionsError) throw markUserError(error);
    throw error;
  }
}

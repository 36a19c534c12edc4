/**
 * A mistake in what a command was given (flags, files, selection): the CLI prints it and exits
 * 2. Thrown while parsing (the message names the command) and by a run that cannot start.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

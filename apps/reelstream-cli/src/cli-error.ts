/** A usage or input error: printed as one line on stderr, exit code 2, nothing read or written. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

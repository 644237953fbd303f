import { ReelstreamError } from '@reelstream/contracts';

/** A usage or input error: printed as one line on stderr, exit code 2, nothing read or written. Not retriable. */
export class CliError extends ReelstreamError {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super('VALIDATION_FAILED', message, { retriable: false });
  }
}

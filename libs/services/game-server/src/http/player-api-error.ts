import { defaultMessageOf, httpStatusOf, type ErrorCode, type ErrorDetail, type HttpErrorStatus } from '@reelstream/contracts';

/**
 * A refusal of the player API as a value the routes throw and the error handler answers in the
 * API envelope (D16). The HTTP status is always the catalogue's status of the code.
 */
export class PlayerApiError extends Error {
  override readonly name = 'PlayerApiError';

  constructor(
    readonly code: ErrorCode,
    message: string = defaultMessageOf(code),
    readonly details?: readonly ErrorDetail[],
    /** Extra response headers, e.g. `Retry-After`. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  get status(): HttpErrorStatus {
    return httpStatusOf(this.code);
  }
}

export function isPlayerApiError(error: unknown): error is PlayerApiError {
  return error instanceof PlayerApiError;
}

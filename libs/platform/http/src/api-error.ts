import {
  defaultMessageOf,
  httpStatusOf,
  type ErrorCode,
  type ErrorDetail,
  type HttpErrorStatus,
  type ServiceError,
} from '@reelstream/contracts';

/**
 * An API failure as a value the routes throw and the error handler answers (DESIGN D16): the
 * operator API of the gateway and the player API of the launch host. Its HTTP status is never
 * chosen here: it is the catalogue's status of its code.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

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

  static from(error: ServiceError, headers: Readonly<Record<string, string>> = {}): ApiError {
    return new ApiError(error.code, error.message, error.details, headers);
  }

  static validation(details: readonly ErrorDetail[]): ApiError {
    return new ApiError('VALIDATION_FAILED', defaultMessageOf('VALIDATION_FAILED'), details);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

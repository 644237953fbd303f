import {
  defaultMessageOf,
  httpStatusOf,
  ReelstreamError,
  type ErrorCode,
  type ErrorDetail,
  type HttpErrorStatus,
  type Refusal,
  type ServiceError,
} from '@reelstream/contracts';

/**
 * An API failure as a value the routes throw and the error handler answers (decisions.md D16): the
 * operator API of the gateway and the player API of the launch host. Its HTTP status is never
 * chosen here: it is the catalogue's status of its code. Retriable when the status says "try
 * again later" (429, 503).
 */
export class ApiError extends ReelstreamError {
  override readonly name = 'ApiError';

  constructor(
    code: ErrorCode,
    message: string = defaultMessageOf(code),
    details?: readonly ErrorDetail[],
    /** Extra response headers, e.g. `Retry-After`. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    const status = httpStatusOf(code);
    super(code, message, { details, retriable: status === 429 || status === 503 });
  }

  get status(): HttpErrorStatus {
    return httpStatusOf(this.code);
  }

  /** A service's error value or a decider's refusal, answered with its code, message and details. */
  static override from(error: ServiceError | Refusal, headers: Readonly<Record<string, string>> = {}): ApiError {
    return new ApiError(error.code, error.message, error.details, headers);
  }

  static validation(details: readonly ErrorDetail[]): ApiError {
    return new ApiError('VALIDATION_FAILED', defaultMessageOf('VALIDATION_FAILED'), details);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

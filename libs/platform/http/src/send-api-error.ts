import { failure, HttpHeaders } from '@reelstream/contracts';
import type { Response } from 'express';
import type { ApiError } from './api-error.js';

const ANSWERED_ERROR_CODE = 'reelstream.answeredErrorCode';

/** The error envelope with the catalogue's status for the code, plus the error's headers. */
export function sendApiError(res: Response, error: ApiError): void {
  res.locals[ANSWERED_ERROR_CODE] = error.code;
  const body = failure(error.code, error.message, error.details === undefined ? undefined : [...error.details]);
  res.status(error.status).set(error.headers);
  // A client told to come back needs to know when; one second unless the error said otherwise.
  if ((error.status === 503 || error.status === 429) && res.get(HttpHeaders.retryAfter) === undefined)
    res.set(HttpHeaders.retryAfter, '1');
  res.json(body);
}

/** The code `sendApiError` answered this request with, for the access log. */
export function answeredErrorCode(res: Response): string | undefined {
  const code: unknown = res.locals[ANSWERED_ERROR_CODE];
  return typeof code === 'string' ? code : undefined;
}

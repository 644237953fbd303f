import { failure, HttpHeaders, ok } from '@reelstream/contracts';
import type { Response } from 'express';
import type { ApiError } from './api-error.js';
import { requestContext } from './request-context.js';

/** `{success: true, message: "OK", data}` with 200. */
export function sendOk(res: Response, data: unknown, headers: Readonly<Record<string, string>> = {}): void {
  res.status(200).set(headers).json(ok(data));
}

/** The error envelope with the catalogue's status for the code, plus the error's headers. */
export function sendApiError(res: Response, error: ApiError): void {
  requestContext(res).errorCode = error.code;
  const body = failure(error.code, error.message, error.details === undefined ? undefined : [...error.details]);
  res.status(error.status).set(error.headers);
  if ((error.status === 503 || error.status === 429) && res.get(HttpHeaders.retryAfter) === undefined) res.set(HttpHeaders.retryAfter, '1');
  res.json(body);
}

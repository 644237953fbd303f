import { failure, HttpHeaders, type RefusedError } from '@reelstream/contracts';
import type { Response } from 'express';

const ANSWERED_ERROR_CODE = 'reelstream.answeredErrorCode';

/**
 * The one HTTP answer of a refusal (decisions.md D16): the error envelope with the catalogue's status
 * for its code, and `Retry-After` when it says when to try again. A client told to come back (429,
 * 503) needs to know when: one second unless the refusal said otherwise.
 */
export function sendRefusal(res: Response, error: RefusedError): void {
  res.locals[ANSWERED_ERROR_CODE] = error.code;
  const body = failure(error.code, error.message, error.details === undefined ? undefined : [...error.details]);
  res.status(error.status);
  const retryAfter = error.retryAfterSeconds ?? (error.status === 503 || error.status === 429 ? 1 : undefined);
  if (retryAfter !== undefined) res.set(HttpHeaders.retryAfter, String(retryAfter));
  res.json(body);
}

/** The code `sendRefusal` answered this request with, for the access log. */
export function answeredErrorCode(res: Response): string | undefined {
  const code: unknown = res.locals[ANSWERED_ERROR_CODE];
  return typeof code === 'string' ? code : undefined;
}

import { failure, HttpHeaders, validationDetails } from '@reelstream/contracts';
import type { Logger } from '@reelstream/telemetry';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import * as z from 'zod';
import { isPlayerApiError, PlayerApiError } from './player-api-error.js';
import { requestIdOf } from './request-id.js';

const PARSER_ERRORS: Readonly<Record<string, () => PlayerApiError>> = {
  'entity.parse.failed': () => new PlayerApiError('MALFORMED_JSON'),
  'entity.too.large': () => new PlayerApiError('PAYLOAD_TOO_LARGE'),
  'encoding.unsupported': () => new PlayerApiError('UNSUPPORTED_MEDIA_TYPE'),
  'charset.unsupported': () => new PlayerApiError('UNSUPPORTED_MEDIA_TYPE'),
};

function classify(error: unknown): PlayerApiError | undefined {
  if (isPlayerApiError(error)) return error;
  if (error instanceof z.ZodError) return new PlayerApiError('VALIDATION_FAILED', undefined, validationDetails(error));
  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
  const parser = typeof type === 'string' ? PARSER_ERRORS[type]?.() : undefined;
  if (parser) return parser;
  // Express's own client errors: a missing asset, a path that is not valid percent-encoding.
  if (status === 404) return new PlayerApiError('ROUTE_NOT_FOUND');
  if (status === 400) return new PlayerApiError('VALIDATION_FAILED', 'The request URL or body could not be decoded.');
  return undefined;
}

export function apiRouteNotFound(): RequestHandler {
  return () => {
    throw new PlayerApiError('ROUTE_NOT_FOUND');
  };
}

/** Every failure of the player API in the envelope (D16) with the catalogue's status; a fault of ours is logged and answered 503, never with a stack. */
export function apiErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    let known = classify(error);
    if (!known) {
      logger.error('player API request failed', { requestId: requestIdOf(res), method: req.method, error });
      known = new PlayerApiError('INTERNAL');
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(known.status).set(known.headers);
    if (known.status === 503 && res.get(HttpHeaders.retryAfter) === undefined) res.set(HttpHeaders.retryAfter, '1');
    res.json(failure(known.code, known.message, known.details === undefined ? undefined : [...known.details]));
  };
}

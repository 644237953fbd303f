import { isRefusedError, RefusedError } from '@reelstream/contracts';
import type { Logger } from '@reelstream/platform-telemetry';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { sendRefusal } from './send-refusal.js';

/** Errors of express's JSON body parser (body-parser / raw-body), by their `type`. */
const PARSER_ERRORS: Readonly<Record<string, () => RefusedError>> = {
  'entity.parse.failed': () => new RefusedError('MALFORMED_JSON'),
  'entity.too.large': () => new RefusedError('PAYLOAD_TOO_LARGE'),
  'entity.verify.failed': () => new RefusedError('MALFORMED_JSON'),
  'request.size.invalid': () =>
    new RefusedError('MALFORMED_JSON', 'The request body is shorter or longer than its Content-Length.'),
  'encoding.unsupported': () =>
    new RefusedError('UNSUPPORTED_MEDIA_TYPE', 'Content-Encoding is not supported; send the JSON body uncompressed.'),
  'charset.unsupported': () => new RefusedError('UNSUPPORTED_MEDIA_TYPE', 'The JSON body must be UTF-8.'),
};

interface HttpishError {
  type?: unknown;
  status?: unknown;
  statusCode?: unknown;
}

/** The refusal an error thrown anywhere in the pipeline answers as; undefined when it is a fault of ours. */
function classifyHttpError(error: unknown): RefusedError | undefined {
  if (isRefusedError(error)) return error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, status, statusCode } = error as HttpishError;
  if (typeof type === 'string') {
    const mapped = PARSER_ERRORS[type];
    if (mapped !== undefined) return mapped();
  }
  // Other client errors of express itself, e.g. a path parameter that is not valid percent-encoding.
  const code = typeof status === 'number' ? status : statusCode;
  if (code === 400) return new RefusedError('VALIDATION_FAILED', 'The request URL or body could not be decoded.');
  if (code === 404) return new RefusedError('ROUTE_NOT_FOUND');
  if (code === 413) return new RefusedError('PAYLOAD_TOO_LARGE');
  if (code === 415) return new RefusedError('UNSUPPORTED_MEDIA_TYPE');
  return undefined;
}

/** Unknown routes answer in the envelope too. */
export function routeNotFound(): RequestHandler {
  return () => {
    throw new RefusedError('ROUTE_NOT_FOUND');
  };
}

export interface ApiErrorHandlerOptions {
  logger: Logger;
  /** The request's id, for the log line of an unexpected error. */
  requestIdOf(res: Response): string;
  /** The path as it may be logged: a path that holds a credential (a session token) must not be logged as it is. */
  loggedPath?(req: Request): string;
  /** The service's own refusals that are not RefusedErrors (e.g. a request body's ZodError); asked first. */
  classify?(error: unknown): RefusedError | undefined;
}

/**
 * The last middleware: every error becomes the envelope with the catalogue's status
 * (decisions.md D16). Anything unexpected is logged with its stack and answered as 503 INTERNAL, never
 * with the stack.
 */
export function apiErrorHandler(options: ApiErrorHandlerOptions): ErrorRequestHandler {
  const { logger } = options;
  const loggedPath = options.loggedPath ?? ((req: Request) => req.originalUrl.split('?')[0] ?? req.originalUrl);
  return (error: unknown, req, res, _next) => {
    let refused = options.classify?.(error) ?? classifyHttpError(error);
    if (refused === undefined) {
      logger.error('request failed', {
        requestId: options.requestIdOf(res),
        method: req.method,
        path: loggedPath(req),
        error,
      });
      refused = new RefusedError('INTERNAL');
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendRefusal(res, refused);
  };
}

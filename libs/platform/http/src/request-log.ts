import type { IncomingMessage, ServerResponse } from 'node:http';
import { redactUrlSecrets, type Logger } from '@reelstream/platform-telemetry';
import type { Request, RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
import { answeredErrorCode } from './send-refusal.js';

export interface RequestLogOptions {
  /** The id the service answered the request with (X-Request-Id): `req.id` of the line. */
  requestIdOf(res: Response): string;
  /** The level of a request answered below 500 (500 and up, and failed requests: warn). Default `info`. */
  level?: 'debug' | 'info';
  /** Fields known once the response is done, e.g. the authenticated operator. */
  fieldsOf?(res: Response): Record<string, unknown>;
}

/** Probes are polled every few seconds by every supervisor: not worth a line each. */
const PROBES: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

const MESSAGE = 'http request';

/**
 * The access log, through pino-http: one line per request when its response is done (or the
 * client went away: `aborted`), in the request's trace, as
 * `{"req":{"id","method","path"},"res":{"statusCode"},"responseTime","route"?,"errorCode"?,...,"msg":"http request"}`.
 * The path never carries the query string, and a secret in it (the game-server's session token)
 * is redacted.
 */
export function requestLog(logger: Logger, options: RequestLogOptions): RequestHandler {
  const level = options.level ?? 'info';
  const fieldsAtEnd = (req: IncomingMessage, res: ServerResponse) =>
    finishFields(req as Request, res as Response, options.fieldsOf);
  const middleware = pinoHttp({
    logger: logger.pino,
    genReqId: (_req, res) => options.requestIdOf(res as Response),
    autoLogging: { ignore: (req) => PROBES.has(pathOf(req)) },
    // The raw objects, not pino's standard shapes: those copy every header of every request.
    wrapSerializers: false,
    serializers: {
      req: (req: IncomingMessage & { id?: unknown }) => ({ id: req.id, method: req.method, path: pathOf(req) }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req, res, error) => (error !== undefined || res.statusCode >= 500 ? 'warn' : level),
    customSuccessMessage: () => MESSAGE,
    customErrorMessage: () => MESSAGE,
    customSuccessObject: (req, res, value: object) => ({ ...value, ...fieldsAtEnd(req, res) }),
    // pino-http adds `err` (an Error it makes up for a 5xx): the service's error handler already logged the real one.
    customErrorObject: (req, res, _error, value: { res?: unknown; responseTime?: unknown }) => ({
      res: value.res,
      responseTime: value.responseTime,
      ...fieldsAtEnd(req, res),
    }),
  });
  const logged = middleware as unknown as RequestHandler;
  // Below the configured level only a 5xx is written (at warn): without pino-http's two child
  // loggers per request, which it makes whether or not the line is written (LOG_LEVEL=warn).
  const failuresOnly: RequestHandler = (req, res, next) => {
    if (PROBES.has(pathOf(req))) return next();
    const started = Date.now();
    const done = () => {
      res.off('close', done);
      res.off('finish', done);
      if (res.statusCode < 500 || !logger.pino.isLevelEnabled('warn')) return;
      logger.pino.warn(
        {
          req: { id: options.requestIdOf(res), method: req.method, path: pathOf(req) },
          res: { statusCode: res.statusCode },
          responseTime: Date.now() - started,
          ...fieldsAtEnd(req, res),
        },
        MESSAGE,
      );
    };
    res.on('close', done);
    res.on('finish', done);
    next();
  };
  return (req, res, next) => (logger.pino.isLevelEnabled(level) ? logged : failuresOnly)(req, res, next);
}

function pathOf(req: IncomingMessage & { originalUrl?: string }): string {
  const url = req.originalUrl ?? req.url ?? '/';
  const query = url.indexOf('?');
  return redactUrlSecrets(query === -1 ? url : url.slice(0, query));
}

function finishFields(req: Request, res: Response, fieldsOf: RequestLogOptions['fieldsOf']): Record<string, unknown> {
  const route = (req.route as { path?: unknown } | undefined)?.path;
  const errorCode = answeredErrorCode(res);
  return {
    ...(typeof route === 'string' ? { route } : {}),
    ...(errorCode !== undefined ? { errorCode } : {}),
    ...(res.writableFinished ? {} : { aborted: true }),
    ...fieldsOf?.(res),
  };
}

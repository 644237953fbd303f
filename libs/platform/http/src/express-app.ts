import type { Express } from 'express';

/**
 * What every HTTP API of the platform (the gateway's, the game-server's, the operator sandbox's)
 * sets on its Express app before its routes: no `X-Powered-By`; no ETag (answers are live state,
 * never revalidated from a cache); the simple query parser, so `?a[b]=1` is a string and never a nested object; and
 * `trust proxy` only when configured, so `X-Forwarded-For` names the client only behind known proxies.
 *
 * The caller creates the app (`express()`): this library must not load express itself, because the
 * runtime imports it before telemetry starts, and express is instrumented only when loaded after.
 */
export function withPlatformDefaults(app: Express, trustProxy: number | string[] | undefined): Express {
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  if (trustProxy !== undefined) app.set('trust proxy', trustProxy);
  return app;
}

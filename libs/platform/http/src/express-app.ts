import express, { type Express } from 'express';

/**
 * An Express app with what every public API of the platform (the gateway's, the game-server's) sets
 * before its routes: no `X-Powered-By`; no ETag (answers are live state, never revalidated from a
 * cache); the simple query parser, so `?a[b]=1` is a string and never a nested object; and
 * `trust proxy` only when configured, so `X-Forwarded-For` names the client only behind known proxies.
 */
export function platformExpressApp(trustProxy: number | string[] | undefined): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  if (trustProxy !== undefined) app.set('trust proxy', trustProxy);
  return app;
}

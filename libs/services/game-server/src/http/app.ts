/**
 * The game-server's express application: the launch page, the player API (D23), the page's
 * assets and the probes, with its collaborators passed in.
 */
import type { Logger } from '@reelstream/telemetry';
import express, { type Express } from 'express';
import { apiErrorHandler, apiRouteNotFound } from './error-handler.js';
import { loggedPath, requestIdMiddleware } from './request-id.js';
import { healthRoutes, launchRoute, playerApiRoutes, type RouteDeps } from './routes.js';
import { securityHeaders } from './security-headers.js';

export function createGameServerApp(deps: RouteDeps & { logger: Logger }): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestIdMiddleware());
  app.use((req, res, next) => {
    const started = performance.now();
    res.on('finish', () => {
      if (req.path === '/healthz' || req.path === '/readyz') return;
      deps.logger.debug('http request', { method: req.method, path: loggedPath(req), status: res.statusCode, ms: Math.round(performance.now() - started), requestId: res.get('X-Request-Id') });
    });
    next();
  });
  app.use(securityHeaders());
  healthRoutes(app, deps);
  launchRoute(app, deps);
  playerApiRoutes(app, deps);
  app.use(apiRouteNotFound());
  app.use(apiErrorHandler(deps.logger));
  return app;
}

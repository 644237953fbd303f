/**
 * The game-server's express application: the launch page, the player API (D23), the page's
 * assets and the probes, with its collaborators passed in.
 */
import { validationDetails } from '@reelstream/contracts';
import { ApiError, apiErrorHandler, requestLog, routeNotFound } from '@reelstream/http';
import { recordHttpRoute, type Logger } from '@reelstream/telemetry';
import express, { type Express } from 'express';
import * as z from 'zod';
import { classifyRefusal } from './refusals.js';
import { loggedPath, requestIdMiddleware, requestIdOf } from './request-id.js';
import { healthRoutes, launchRoute, playerApiRoutes, type RouteDeps } from './routes.js';
import { securityHeaders } from './security-headers.js';

export function createGameServerApp(deps: RouteDeps & { logger: Logger }): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestIdMiddleware());
  app.use(recordHttpRoute());
  // Spins are many: their lines are for debugging; a 5xx is a warning whatever the level.
  app.use(requestLog(deps.logger, { requestIdOf, level: 'debug' }));
  app.use(securityHeaders());
  healthRoutes(app, deps);
  launchRoute(app, deps);
  playerApiRoutes(app, deps);
  app.use(routeNotFound());
  app.use(
    apiErrorHandler({
      logger: deps.logger,
      requestIdOf,
      loggedPath,
      // The player API's routes parse their bodies by throwing: a body that does not fit is the caller's error.
      // A use case's refusal (a domain value thrown as GameRefusedError) becomes HTTP here and only here.
      classify: (error) =>
        error instanceof z.ZodError ? ApiError.validation(validationDetails(error)) : classifyRefusal(error),
    }),
  );
  return app;
}

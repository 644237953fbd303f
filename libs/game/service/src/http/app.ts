/**
 * The game-server's express application: the launch page, the player API (D23), the page's
 * assets and the probes, with its collaborators passed in.
 */
import { validationDetails, RefusedError } from '@reelstream/contracts';
import { apiErrorHandler, requestLog, routeNotFound, withPlatformDefaults } from '@reelstream/platform-http';
import { recordHttpRoute, type Logger } from '@reelstream/platform-telemetry';
import type { Clock } from '@reelstream/platform-ports';
import express, { type Express } from 'express';
import * as z from 'zod';
import { launchHostRateLimit, type LaunchHostRateLimits } from './rate-limit.js';
import { loggedPath, requestIdMiddleware, requestIdOf } from './request-id.js';
import { healthRoutes, launchRoute, playerApiRoutes, type RouteDeps } from './routes.js';
import { securityHeaders } from './security-headers.js';

export interface GameServerAppDeps extends RouteDeps {
  logger: Logger;
  clock: Clock;
  /** Unset: nothing is limited (the game-server app always sets them). */
  rateLimits?: LaunchHostRateLimits | undefined;
  /** Express's `trust proxy`: the proxies whose `X-Forwarded-For` names the client. Unset: none. */
  trustProxy?: number | string[] | undefined;
}

export function createGameServerApp(deps: GameServerAppDeps): Express {
  const app = withPlatformDefaults(express(), deps.trustProxy);
  app.use(requestIdMiddleware());
  app.use(recordHttpRoute());
  // Spins are many: their lines are for debugging; a 5xx is a warning whatever the level.
  app.use(requestLog(deps.logger, { requestIdOf, level: 'debug' }));
  app.use(securityHeaders());
  if (deps.rateLimits) app.use(launchHostRateLimit(deps.rateLimits, deps.sessions, deps.clock));
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
      // A use case's refusal, thrown as a RefusedError, is answered by the handler itself.
      classify: (error) =>
        error instanceof z.ZodError ? RefusedError.validation(validationDetails(error)) : undefined,
    }),
  );
  return app;
}

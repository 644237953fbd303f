import { ApiOperations } from '@reelstream/contracts';
import type { Express, RequestHandler } from 'express';
import { callerOf, requestContext } from '../http/request-context.js';
import { sendOk } from '../http/respond.js';
import { parseRequest } from '../http/validate.js';
import { startGameSession, type LaunchDeps } from '../launch/start-session.js';
import { expressPath } from './bonus-call-routes.js';

/** `POST /v1/game/launch` (spec §4.3). */
export function launchRoutes(app: Express, deps: LaunchDeps & { jsonBody: RequestHandler[] }): void {
  const { launchGame } = ApiOperations;
  app.post(expressPath(launchGame.path), ...deps.jsonBody, async (req, res) => {
    const request = parseRequest(launchGame.body, req.body);
    const url = await startGameSession(deps, callerOf(res), request, requestContext(res).requestId);
    sendOk(res, url);
  });
}

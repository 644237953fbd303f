import { ApiOperations } from '@reelstream/contracts';
import type { Express } from 'express';
import type { CatalogView } from '../catalog/catalog-view.js';
import { callerOf } from '../http/request-context.js';
import { sendOk } from '../http/respond.js';
import { nonEmptyQuery, parseRequest } from '../http/validate.js';

/** `GET /v1/providers`, `GET /v1/games?providerId=` (decisions.md D15); bet levels in the caller's currency. */
export function catalogRoutes(app: Express, catalog: CatalogView): void {
  const { listProviders, listGames } = ApiOperations;
  app.get(listProviders.path, (_req, res) => sendOk(res, catalog.providers()));
  app.get(listGames.path, (req, res) => {
    const { providerId } = parseRequest(listGames.query, nonEmptyQuery(req.query));
    sendOk(res, catalog.games(callerOf(res).currency, providerId));
  });
}

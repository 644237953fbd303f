/**
 * Game launch (spec §2.3, §4.3; docs/architecture.md flow 2, D6, D19) at the gateway's edge: the game context's
 * use case (@reelstream/game-application) decides and writes the session; its refusal is answered
 * here as the API error of the same code.
 */
import { RefusedError } from '@reelstream/contracts';
import { randomBytes } from 'node:crypto';
import type { LaunchGameRequest, OperatorConfig } from '@reelstream/contracts';
import { startGameSession as startSession } from '@reelstream/game-application';
import type { Clock, EventStore } from '@reelstream/platform-ports';
import type { CatalogView } from '../catalog/catalog-view.js';

export interface LaunchDeps {
  store: EventStore;
  catalog: CatalogView;
  clock: Clock;
  launchBaseUrl: string;
  sessionTtlMs: number;
}

/** 32 random bytes, base64url: 256 bits nobody can guess (43 characters). */
function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export async function startGameSession(
  deps: LaunchDeps,
  operator: OperatorConfig,
  request: LaunchGameRequest,
  requestId: string,
): Promise<string> {
  const launched = await startSession(
    { ...deps, catalog: deps.catalog.catalog, newToken: newSessionToken },
    operator,
    request,
    requestId,
  );
  if (typeof launched !== 'string')
    throw new RefusedError(launched.code, launched.message, { details: launched.details });
  return launched;
}

/**
 * Game launch (spec §2.3, §4.3; DESIGN flow 2, D6, D19): checks the game against the catalog,
 * appends GameSessionStarted to a new `session-{token}` stream and answers the launch URL.
 */
import { randomBytes } from 'node:crypto';
import {
  eventToAppend,
  isReturnUrlAllowed,
  sessionStream,
  type GameSessionStarted,
  type LaunchGameRequest,
  type OperatorConfig,
} from '@reelstream/contracts';
import type { Clock, EventStore } from '@reelstream/ports';
import { betLevelsIn, type CatalogView } from '../catalog/catalog-view.js';
import { ApiError } from '@reelstream/http';

export interface LaunchDeps {
  store: EventStore;
  catalog: CatalogView;
  clock: Clock;
  launchBaseUrl: string;
  sessionTtlMs: number;
}

/** 32 random bytes, base64url: 256 bits nobody can guess (43 characters). */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export async function startGameSession(
  deps: LaunchDeps,
  operator: OperatorConfig,
  request: LaunchGameRequest,
  requestId: string,
): Promise<string> {
  checkGame(deps.catalog, request, request.currency ?? operator.currency);
  if (!isReturnUrlAllowed(request.returnUrl, operator.allowedReturnOrigins)) {
    throw new ApiError('RETURN_URL_NOT_ALLOWED', undefined, [
      {
        path: 'returnUrl',
        message: `the origin of returnUrl must be one of ${operator.allowedReturnOrigins.join(', ')}`,
      },
    ]);
  }
  const token = newSessionToken();
  const now = deps.clock.now();
  const event: GameSessionStarted = {
    type: 'GameSessionStarted',
    data: {
      token,
      operatorId: operator.id,
      playerId: request.playerId,
      providerId: request.providerId,
      gameId: request.gameId,
      language: request.language,
      returnUrl: request.returnUrl,
      isStreamer: request.isStreamer,
      currency: request.currency ?? operator.currency,
      startedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + deps.sessionTtlMs).toISOString(),
      ...(request.demo === true ? { demo: true } : {}),
    },
  };
  const context = {
    correlationId: requestId,
    causationId: requestId,
    operatorId: operator.id,
    occurredAt: now.toISOString(),
  };
  // A fresh 256-bit token cannot collide; 'no_stream' makes sure a session is never appended to.
  await deps.store.append(sessionStream(token), [eventToAppend(event, context)], { expectedRevision: 'no_stream' });
  return `${deps.launchBaseUrl}/launch?token=${token}`;
}

/** Provider and game exist, the game is the provider's, and it has bet levels in the player's currency. */
function checkGame(catalog: CatalogView, request: LaunchGameRequest, currency: string): void {
  if (catalog.provider(request.providerId) === undefined) {
    throw new ApiError('PROVIDER_NOT_FOUND', undefined, [
      { path: 'providerId', message: `no provider ${request.providerId}; see GET /v1/providers` },
    ]);
  }
  const game = catalog.game(request.gameId);
  if (game === undefined)
    throw new ApiError('GAME_NOT_FOUND', undefined, [
      { path: 'gameId', message: `no game ${request.gameId}; see GET /v1/games` },
    ]);
  if (game.providerId !== request.providerId) {
    throw new ApiError('GAME_NOT_OF_PROVIDER', undefined, [
      {
        path: 'gameId',
        message: `game ${request.gameId} belongs to provider ${game.providerId}, not ${request.providerId}`,
      },
    ]);
  }
  if (betLevelsIn(game, currency).length === 0) {
    throw ApiError.validation([
      { path: 'currency', message: `game ${request.gameId} has no bet levels that can be expressed in ${currency}` },
    ]);
  }
}

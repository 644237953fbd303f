/**
 * Game launch (spec §2.3, §4.3; docs/architecture.md flow 2, D6, D19): the session decider checks the game
 * against the catalog and the returnUrl against the operator's origins, and its GameSessionStarted
 * starts a new `session-sha256.{key}` stream (`sessionKeyStream`), the key being the token's
 * SHA-256 (`sessionKeyOf`): the log never holds the token itself. Answers the launch URL, which
 * alone carries the token, or the decider's refusal.
 */
import { sessionKeyOf, type LaunchGameRequest, isRefusal, type Refusal, type Catalog } from '@reelstream/contracts';
import { sessionDecider } from '@reelstream/game-domain';
import type { Clock, EventStore } from '@reelstream/platform-ports';
import { sessionStreams } from './session-streams.js';

export interface StartSessionDeps {
  readonly store: EventStore;
  readonly catalog: Catalog;
  readonly clock: Clock;
  readonly launchBaseUrl: string;
  readonly sessionTtlMs: number;
  /** A fresh unguessable token (the launch's only secret). */
  newToken(): string;
}

export interface LaunchingOperator {
  readonly id: string;
  readonly currency: string;
  readonly allowedReturnOrigins: readonly string[];
  readonly features: { readonly streamers: boolean };
}

export async function startGameSession(
  deps: StartSessionDeps,
  operator: LaunchingOperator,
  request: LaunchGameRequest,
  requestId: string,
): Promise<string | Refusal> {
  const token = deps.newToken();
  const key = sessionKeyOf(token);
  const now = deps.clock.now().toISOString();
  const command = {
    type: 'StartSession',
    token: key,
    operator,
    request,
    catalog: deps.catalog,
    now,
    ttlMs: deps.sessionTtlMs,
  } as const;
  const handled = await sessionStreams.handle(
    deps.store,
    { key },
    command,
    { commandId: requestId, correlationId: requestId, operatorId: operator.id, occurredAt: now },
    // A fresh 256-bit token names no stream yet: decide on the empty state without reading (a conflict re-reads).
    { loaded: { state: sessionDecider.initialState, revision: undefined } },
  );
  if (isRefusal(handled)) return handled;
  return `${deps.launchBaseUrl}/launch?token=${token}`;
}

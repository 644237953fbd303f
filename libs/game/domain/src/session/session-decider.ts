/**
 * A launch session's rules (spec §2.3, §4.3; docs/architecture.md flow 2, D6, D19): which launches are refused,
 * what the `session-{key}` stream records, and when a session may still be played. The key (the launch
 * token's SHA-256, what the log holds instead of the token) and the time come in with the command: a
 * fresh 256-bit token, so a stream is never started twice.
 */
import {
  findGame,
  findProvider,
  isReturnUrlAllowed,
  offeredBetLevelsMinor,
  refusal,
  type Catalog,
  type GameSessionStarted,
  type LaunchGameRequest,
  type Refusal,
  type SessionEvent,
} from '@reelstream/contracts';

export type GameSession = GameSessionStarted['data'] & {
  readonly demo: boolean;
  /** When a GameSessionEnded was written. */
  readonly endedAt?: string;
};

interface SessionState {
  readonly session?: GameSession;
}

export interface StartSession {
  readonly type: 'StartSession';
  /** `sessionKeyOf(token)`: recorded as GameSessionStarted `token`. */
  readonly token: string;
  readonly operator: {
    readonly id: string;
    readonly currency: string;
    readonly allowedReturnOrigins: readonly string[];
    /** `streamers`: whether the operator may launch streamer sessions (isStreamer: true). */
    readonly features: { readonly streamers: boolean };
  };
  readonly request: LaunchGameRequest;
  readonly catalog: Catalog;
  /** ISO instant of the launch. */
  readonly now: string;
  readonly ttlMs: number;
}

type SessionCommand = StartSession;

const initialState: SessionState = {};

function decide(command: SessionCommand, state: SessionState): readonly SessionEvent[] | Refusal {
  const { request, operator } = command;
  const currency = request.currency ?? operator.currency;
  const refused =
    streamerRefusal(request, operator) ??
    launchRefusal(command.catalog, request, currency) ??
    returnUrlRefusal(request, operator);
  if (refused) return refused;
  const event: GameSessionStarted = {
    type: 'GameSessionStarted',
    data: {
      token: command.token,
      operatorId: operator.id,
      playerId: request.playerId,
      providerId: request.providerId,
      gameId: request.gameId,
      language: request.language,
      returnUrl: request.returnUrl,
      isStreamer: request.isStreamer,
      currency,
      startedAt: command.now,
      expiresAt: new Date(Date.parse(command.now) + command.ttlMs).toISOString(),
      ...(request.demo === true ? { demo: true } : {}),
    },
  };
  if (state.session) {
    // The same launch decided again (a retried append): done. Any other start of this token is a fault.
    const same = state.session.startedAt === command.now && state.session.playerId === request.playerId;
    return same && state.session.operatorId === operator.id
      ? []
      : refusal('INTERNAL', `session ${command.token} was already started by another launch`);
  }
  return [event];
}

function evolve(state: SessionState, event: SessionEvent): SessionState {
  if (event.type === 'GameSessionStarted') return { session: { ...event.data, demo: event.data.demo ?? false } };
  return state.session ? { session: { ...state.session, endedAt: event.data.endedAt } } : state;
}

export const sessionDecider = { initialState, decide, evolve };

/** The session, if it may still be played at `now`: SESSION_NOT_FOUND, or SESSION_EXPIRED once past its TTL or ended. */
export function playableSession(session: GameSession | undefined, now: Date): GameSession | Refusal {
  if (!session) return refusal('SESSION_NOT_FOUND');
  if (session.endedAt !== undefined || now.getTime() >= Date.parse(session.expiresAt))
    return refusal('SESSION_EXPIRED');
  return session;
}

/**
 * A streamer session plays the streamer RTP profile (above 100 %) and leaves the agent report: the
 * operator's privilege, given by its `features.streamers`.
 */
function streamerRefusal(request: LaunchGameRequest, operator: StartSession['operator']): Refusal | undefined {
  if (!request.isStreamer || operator.features.streamers) return undefined;
  return refusal('STREAMER_NOT_ALLOWED', undefined, {
    details: [
      { path: 'isStreamer', message: 'isStreamer: true needs the operator feature streamers; launch with false' },
    ],
  });
}

/** Provider and game exist, the game is the provider's, and it has bet levels in the player's currency. */
function launchRefusal(catalog: Catalog, request: LaunchGameRequest, currency: string): Refusal | undefined {
  if (findProvider(catalog, request.providerId) === undefined) {
    return refusal('PROVIDER_NOT_FOUND', undefined, {
      details: [{ path: 'providerId', message: `no provider ${request.providerId}; see GET /v1/providers` }],
    });
  }
  const game = findGame(catalog, request.gameId);
  if (game === undefined)
    return refusal('GAME_NOT_FOUND', undefined, {
      details: [{ path: 'gameId', message: `no game ${request.gameId}; see GET /v1/games` }],
    });
  if (game.providerId !== request.providerId) {
    return refusal('GAME_NOT_OF_PROVIDER', undefined, {
      details: [
        {
          path: 'gameId',
          message: `game ${request.gameId} belongs to provider ${game.providerId}, not ${request.providerId}`,
        },
      ],
    });
  }
  if (offeredBetLevelsMinor(game, currency).length === 0) {
    return refusal('VALIDATION_FAILED', undefined, {
      details: [
        { path: 'currency', message: `game ${request.gameId} has no bet levels that can be expressed in ${currency}` },
      ],
    });
  }
  return undefined;
}

function returnUrlRefusal(request: LaunchGameRequest, operator: StartSession['operator']): Refusal | undefined {
  if (isReturnUrlAllowed(request.returnUrl, operator.allowedReturnOrigins)) return undefined;
  return refusal('RETURN_URL_NOT_ALLOWED', undefined, {
    details: [
      {
        path: 'returnUrl',
        message: `the origin of returnUrl must be one of ${operator.allowedReturnOrigins.join(', ')}`,
      },
    ],
  });
}

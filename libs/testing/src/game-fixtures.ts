/**
 * The game context's events as tests meet them: one player's paid round and game session, written
 * the way the game-server writes them. Shared so that the round decider, the spin rules, the wallet
 * requests, the win-source check and the stream tests all speak about the same round.
 */
import type {
  GameSessionStarted,
  LaunchGameRequest,
  RoundStarted,
  WalletBetRequest,
  WalletWinRequest,
} from '@reelstream/contracts';

/** A session token of 43 URL-safe characters (32 random bytes), as the game-server issues them. */
export const SESSION_TOKEN = 'q3Yx0mVb7m2c1kTzV3dH0rFfQm8uJ6nE9sWc4aLpB2g';

/** Round 501 of player_42 at casino-t: a paid 1.00 EUR spin of game 101, its bet transaction 502. */
export function paidRoundStarted(change: Partial<RoundStarted['data']> = {}): RoundStarted['data'] {
  return {
    roundId: 501,
    sessionToken: SESSION_TOKEN,
    operatorId: 'casino-t',
    playerId: 'player_42',
    providerId: 1,
    gameId: 101,
    kind: 'paid',
    currency: 'EUR',
    betMinor: 100,
    bonusId: 0,
    rtpProfile: 'standard',
    startedAt: '2026-05-01T10:00:00.000Z',
    transactionId: 502,
    isBonusBusy: false,
    ...change,
  };
}

/** The bet of that round as the game-server sends it: 1.00 EUR as transaction 502, from the round's RoundStarted. */
export function paidRoundBet(change: Partial<WalletBetRequest> = {}): WalletBetRequest {
  return {
    command: 'bet',
    transactionId: 502,
    operatorId: 'casino-t',
    playerId: 'player_42',
    roundId: 501,
    providerId: 1,
    gameId: 101,
    currency: 'EUR',
    bonusId: 0,
    requestedAt: '2026-05-01T10:00:00.000Z',
    amountMinor: 100,
    isBonusBusy: false,
    ...change,
  };
}

/** The win of that round as the game-server sends it: 2.50 EUR as transaction 503, from the round's RoundSettled. */
export function paidRoundWin(
  source: WalletWinRequest['source'],
  change: Partial<WalletWinRequest> = {},
): WalletWinRequest {
  return {
    command: 'win',
    transactionId: 503,
    operatorId: 'casino-t',
    playerId: 'player_42',
    roundId: 501,
    providerId: 1,
    gameId: 101,
    currency: 'EUR',
    bonusId: 0,
    requestedAt: '2026-05-01T10:00:01.000Z',
    amountMinor: 250,
    isRoundFinished: true,
    source,
    ...change,
  };
}

/** What player_42 asks for when the operator launches game 101 of provider 1. */
export const LAUNCH_REQUEST: LaunchGameRequest = {
  playerId: 'player_42',
  providerId: 1,
  gameId: 101,
  language: 'en',
  returnUrl: 'https://casino.example/lobby',
  isStreamer: false,
};

/** player_42's session of that launch at casino-t, in EUR, started at 10:00 for an hour. */
export function gameSessionStarted(change: Partial<GameSessionStarted['data']> = {}): GameSessionStarted['data'] {
  return {
    token: SESSION_TOKEN,
    operatorId: 'casino-t',
    ...LAUNCH_REQUEST,
    currency: 'EUR',
    startedAt: '2026-05-01T10:00:00.000Z',
    expiresAt: '2026-05-01T11:00:00.000Z',
    ...change,
  };
}

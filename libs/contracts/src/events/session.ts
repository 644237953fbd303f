/** Events of a `session` stream: a launch session (spec §4.3, docs/architecture.md flow 2). */
import * as z from 'zod';
import { languageTag } from '../api/launch.js';
import { catalogId, currencyCode, httpUrl, isoInstant, operatorPlayer } from '../shared/primitives.js';
import { sha256HexOf } from '../shared/sha256.js';
import { eventOf } from './metadata.js';

/** A launch token: at least 128 bits of randomness written URL-safe (base64url or hex). */
export const SESSION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22,128}$/;
export const sessionToken = z
  .string()
  .regex(SESSION_TOKEN_PATTERN, { error: 'session token must be 22–128 URL-safe characters' });

/**
 * What the event log records in place of a launch token: its SHA-256 as 64 lowercase hex
 * characters, in the stream id (`session-sha256.<key>`, `sessionKeyStream`), in GameSessionStarted/GameSessionEnded `token` and
 * in RoundStarted `sessionToken`. The launch URL alone carries the token, so a copy of the log
 * cannot play a live session. Sessions launched before keep their token there (`session-<token>`)
 * until they expire; the game-server reads both.
 */
export function sessionKeyOf(token: string): string {
  return sha256HexOf(token);
}

export const gameSessionStartedData = z.strictObject({
  /** `sessionKeyOf(token)`; the launch token itself in a session started before (sessionKeyOf). */
  token: sessionToken,
  ...operatorPlayer,
  providerId: catalogId,
  gameId: catalogId,
  language: languageTag,
  returnUrl: httpUrl,
  isStreamer: z.boolean(),
  currency: currencyCode,
  startedAt: isoInstant,
  expiresAt: isoInstant,
  /**
   * A demo session: play money kept by the game-server, no wallet callback and no bonus call.
   * Absent means a real-money session (every session written before the field existed).
   */
  demo: z.boolean().optional(),
});

export const gameSessionEndedData = z.strictObject({
  /** As GameSessionStarted `token`. */
  token: sessionToken,
  /** Why the session ended, e.g. `expired`, `closed`, `replaced`. */
  reason: z.string().min(1).max(200),
  endedAt: isoInstant,
});

export const SessionEventTypes = {
  GameSessionStarted: 'GameSessionStarted',
  GameSessionEnded: 'GameSessionEnded',
} as const;

const gameSessionStarted = eventOf(SessionEventTypes.GameSessionStarted, gameSessionStartedData);
const gameSessionEnded = eventOf(SessionEventTypes.GameSessionEnded, gameSessionEndedData);
export const sessionEvent = z.discriminatedUnion('type', [gameSessionStarted, gameSessionEnded]);

export type GameSessionStarted = z.infer<typeof gameSessionStarted>;
export type SessionEvent = z.infer<typeof sessionEvent>;

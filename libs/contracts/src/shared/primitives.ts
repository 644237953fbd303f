/**
 * Field schemas shared by the API, the callbacks, the bus messages and the events, so a rule
 * such as "playerId is 1–50 of A–Z a–z 0–9 _" (spec §2.3) is written once.
 */
import { isCurrencyCode } from '@reelstream/money';
import * as z from 'zod';

/** issueId, transactionId, roundId: positive integers safe in JSON and JavaScript (docs/architecture.md "Data"). */
export const longId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** providerId, gameId: positive integers. */
export const catalogId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** Spec §2.3, applied to every playerId the platform accepts or sends. */
const PLAYER_ID_PATTERN = /^[A-Za-z0-9_]{1,50}$/;
export const playerId = z
  .string()
  .regex(PLAYER_ID_PATTERN, { error: 'playerId must be 1–50 characters of A–Z, a–z, 0–9 or _' })
  .meta({
    description: "The player's id in the operator's system: 1–50 characters of A–Z, a–z, 0–9, _.",
    examples: ['player_42'],
  });

/** ISO 4217 code with a known minor-unit exponent (the ones `@reelstream/money` can convert). */
export const currencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, { error: 'currency must be an upper-case ISO 4217 code such as EUR', abort: true })
  .refine((code) => isCurrencyCode(code), {
    error: (issue) => `currency ${JSON.stringify(issue.input)} is not an ISO 4217 code this platform supports`,
  })
  .meta({ description: 'ISO 4217 currency code.', examples: ['EUR'] });

/** An instant in UTC, ISO-8601 with `Z` (`2026-05-01T12:00:00.000Z`). */
export const isoInstant = z.iso.datetime({ offset: false, local: false });

/** Money inside the system: integer minor units of `currency` (docs/architecture.md "Data"). */
export const minorAmount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
export const positiveMinorAmount = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** A balance may be negative (credit accounts); still whole minor units. */
export const signedMinorAmount = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

/** Unix time in whole seconds (decisions.md D22). */
export const unixSeconds = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** SHA-256 digest as lowercase hex. */
export const sha256Hex = z
  .string()
  .regex(/^[0-9a-f]{64}$/, { error: 'expected a SHA-256 digest as 64 lowercase hex characters' });

/** Operator ids appear in stream ids, bus keys and logs: a short slug. */
const OPERATOR_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const operatorId = z.string().regex(OPERATOR_ID_PATTERN, {
  error: 'operator id must be 1–64 characters of A–Z, a–z, 0–9, _, . or -, starting with a letter or digit',
});

/**
 * A player as every message names one: with the operator it belongs to (a player id alone names
 * nobody). Spread into a message's shape: `z.strictObject({ ...operatorPlayer, … })`.
 */
export const operatorPlayer = { operatorId, playerId };

/** W3C trace context header values carried in messages and event metadata. */
export const traceparent = z
  .string()
  .regex(/^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/, { error: 'traceparent must follow W3C Trace Context' });
export const tracestate = z.string().max(512);

/** An absolute http(s) URL without credentials: the only URLs the platform stores or redirects to. */
function isHttpUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.hostname !== '' &&
    url.username === '' &&
    url.password === ''
  );
}

export const httpUrl = z
  .url({ protocol: /^https?$/, error: 'expected an absolute http:// or https:// URL', abort: true })
  .max(2048, { abort: true })
  .refine((value) => isHttpUrl(value), {
    error: 'expected an absolute http(s) URL with a host and no user name or password',
  });

/** Whether the items of a list are pairwise distinct (by `===` on `key`). */
export function allDistinct<T>(items: readonly T[], key: (item: T) => unknown = (item) => item): boolean {
  return new Set(items.map(key)).size === items.length;
}

import { describe, expect, it } from '@jest/globals';
import * as z from 'zod';
import { errorEnvelope, failure, ok, okEnvelope } from './envelope.js';
import { ERROR_CODES, ErrorCatalogue, httpStatusOf, isErrorCode } from '@reelstream/errors';
import { errorCode, formatIssuePath, validationDetails } from './errors.js';
import { registerBonusCallRequest } from './bonus-call.js';

describe('error catalogue: stable codes, statuses inside D16’s list, never 500 (decisions.md D16)', () => {
  it('uses only 400, 401, 403, 404, 409, 422, 429 and 503', () => {
    const allowed = new Set([400, 401, 403, 404, 409, 422, 429, 503]);
    for (const code of ERROR_CODES) expect(allowed.has(httpStatusOf(code))).toBe(true);
  });

  it.each([
    ['VALIDATION_FAILED', 400],
    ['MALFORMED_JSON', 400],
    ['UNSUPPORTED_MEDIA_TYPE', 400],
    ['PAYLOAD_TOO_LARGE', 400],
    ['AMOUNT_PRECISION', 400],
    ['UNAUTHORIZED', 401],
    ['FORBIDDEN', 403],
    ['NOT_FOUND', 404],
    ['ROUTE_NOT_FOUND', 404],
    ['BONUS_NOT_FOUND', 404],
    ['PLATFORM_ID_CONFLICT', 409],
    ['ACTIVE_BONUS_EXISTS', 409],
    ['BONUS_ALREADY_COMPLETED', 409],
    ['BONUS_EXPIRED', 409],
    ['BONUS_TYPE_UNAVAILABLE', 422],
    ['PROVIDER_NOT_FOUND', 422],
    ['GAME_NOT_FOUND', 422],
    ['GAME_NOT_OF_PROVIDER', 422],
    ['FREE_SPINS_NOT_SUPPORTED', 422],
    ['EXPIRE_AT_IN_PAST', 422],
    ['RETURN_URL_NOT_ALLOWED', 422],
    ['RATE_LIMITED', 429],
    ['SERVICE_UNAVAILABLE', 503],
    ['INTERNAL', 503],
  ] as const)('%s answers %i', (code, status) => {
    expect(httpStatusOf(code)).toBe(status);
  });

  it('has a default message for every code, and its codes are the enum of errorCode', () => {
    for (const code of ERROR_CODES) expect(ErrorCatalogue[code].message.length).toBeGreaterThan(10);
    expect(errorCode.options).toEqual(ERROR_CODES);
    expect(isErrorCode('BONUS_EXPIRED')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode(404)).toBe(false);
  });
});

describe('envelope (spec §2.4) and error envelope (decisions.md D16)', () => {
  it('okEnvelope wraps data in {success: true, message, data}', () => {
    const schema = okEnvelope(z.object({ issueId: z.number() }));
    expect(schema.parse(ok({ issueId: 5 }))).toEqual({ success: true, message: 'OK', data: { issueId: 5 } });
    expect(schema.safeParse({ success: false, message: 'OK', data: { issueId: 5 } }).success).toBe(false);
  });

  it('failure builds {success: false, message, data: null, error: {code, details?}} with the default message', () => {
    const body = failure('ACTIVE_BONUS_EXISTS');
    expect(body).toEqual({
      success: false,
      message: ErrorCatalogue.ACTIVE_BONUS_EXISTS.message,
      data: null,
      error: { code: 'ACTIVE_BONUS_EXISTS' },
    });
    expect(errorEnvelope.parse(body)).toEqual(body);
    const withDetails = failure('VALIDATION_FAILED', 'bad', [{ path: 'playerId', message: 'too long' }]);
    expect(errorEnvelope.parse(withDetails).error.details).toEqual([{ path: 'playerId', message: 'too long' }]);
  });

  it('refuses an error envelope with an unknown code or with data', () => {
    expect(errorEnvelope.safeParse({ success: false, message: 'x', data: null, error: { code: 'OOPS' } }).success).toBe(
      false,
    );
    expect(
      errorEnvelope.safeParse({ success: false, message: 'x', data: {}, error: { code: 'INTERNAL' } }).success,
    ).toBe(false);
  });
});

describe('validationDetails: one {path, message} per zod issue', () => {
  it('formats nested paths with dots and array indices', () => {
    expect(formatIssuePath(['metaData', 'spinAmount'])).toBe('metaData.spinAmount');
    expect(formatIssuePath(['gameId', 1])).toBe('gameId[1]');
    expect(formatIssuePath([0, 'timeZone'])).toBe('[0].timeZone');
    expect(formatIssuePath([])).toBe('');
  });

  it('lists every problem of a register body, unknown keys under their own name', () => {
    const result = registerBonusCallRequest.safeParse({
      platformId: 'p-1',
      providerId: 7,
      gameId: [1, 2.5],
      playerId: 'player-1',
      bonusType: 1,
      callAmount: 10,
      expireAt: '2026-02-30 10:00:00',
      metaData: { spinAmount: 101, baseBetAmount: 1 },
      spins: 3,
    });
    expect(result.success).toBe(false);
    const details = validationDetails(result.error as z.ZodError);
    const paths = details.map((detail) => detail.path).sort();
    expect(paths).toEqual(['expireAt', 'gameId[1]', 'metaData.spinAmount', 'playerId', 'spins']);
    expect(details.find((detail) => detail.path === 'spins')?.message).toBe('unknown field "spins"');
    expect(details.find((detail) => detail.path === 'expireAt')?.message).toMatch(/day 30 does not exist/);
  });

  it('keeps a union’s own message when the value fits none of its alternatives', () => {
    const result = registerBonusCallRequest.safeParse({
      platformId: 'p',
      providerId: 7,
      gameId: 'all',
      playerId: 'p',
      bonusType: 'bonus',
      callAmount: 1,
      expireAt: '2026-01-01 00:00:00',
    });
    const details = validationDetails(result.error as z.ZodError);
    expect(details).toContainEqual({
      path: 'gameId',
      message: 'gameId must be a positive integer or a non-empty array of distinct positive integers',
    });
    expect(details).toContainEqual({ path: 'bonusType', message: 'bonusType must be 1 (FreeSpin) or 2 (Regular)' });
  });
});

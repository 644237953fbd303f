import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type * as z from 'zod';
import {
  bonusCallPathParams,
  cancelBonusCallRequest,
  registerBonusCallRequest,
  type RegisterBonusCallInput,
} from './bonus-call.js';
import { validationDetails } from './errors.js';

const valid = {
  platformId: 'promo-0001',
  providerId: 7,
  gameId: 1001,
  playerId: 'player_42',
  bonusType: 1,
  callAmount: 50,
  expireAt: '2026-06-30 23:59:59',
  metaData: { spinAmount: 10, baseBetAmount: 0.2 },
} satisfies RegisterBonusCallInput;

function register(overrides: Record<string, unknown>, without: string[] = []) {
  const body: Record<string, unknown> = { ...valid, ...overrides };
  for (const key of without) delete body[key];
  return registerBonusCallRequest.safeParse(body);
}

function problems(result: { success: boolean; error?: z.ZodError }): string[] {
  return result.success
    ? []
    : validationDetails(result.error as z.ZodError).map((detail) => `${detail.path}: ${detail.message}`);
}

describe('register: output is one normalised shape (spec §2.1, §4.1)', () => {
  it('parses a Free Spin Bonus into {platformId, providerId, gameIds, playerId, bonusType, callAmount, expireAt, metaData}', () => {
    expect(registerBonusCallRequest.parse(valid)).toEqual({
      platformId: 'promo-0001',
      providerId: 7,
      gameIds: [1001],
      playerId: 'player_42',
      bonusType: 1,
      callAmount: 50,
      expireAt: '2026-06-30 23:59:59',
      metaData: { spinAmount: 10, baseBetAmount: 0.2 },
    });
  });
});

describe('register: platformId 1–64 printable ASCII, no surrounding spaces (spec §2.1)', () => {
  it.each(['a', 'A'.repeat(64), 'promo 2026/05#1', 'x-y_z.1'])('accepts %j', (platformId) =>
    expect(register({ platformId }).success).toBe(true),
  );
  it.each(['', 'A'.repeat(65), ' promo', 'promo ', 'prömo', 'tab\tid', 7])('refuses %j', (platformId) => {
    expect(problems(register({ platformId }))[0]).toMatch(/^platformId: /);
  });
});

describe('register: issueId is an alias of platformId (decisions.md D1)', () => {
  it('accepts issueId without platformId and outputs it as platformId', () => {
    const result = registerBonusCallRequest.parse({ ...valid, platformId: undefined, issueId: 'promo-0002' });
    expect(result.platformId).toBe('promo-0002');
    expect(result).not.toHaveProperty('issueId');
  });

  it('accepts both when they are equal', () => {
    expect(register({ issueId: 'promo-0001' }).success).toBe(true);
  });

  it('refuses both when they differ', () => {
    expect(problems(register({ issueId: 'promo-0002' }))).toEqual([
      'issueId: issueId is an alias of platformId; when both are given they must be equal',
    ]);
  });

  it('refuses a body with neither', () => {
    expect(problems(register({}, ['platformId']))).toEqual(['platformId: platformId is required']);
  });
});

describe('register: providerId is a positive integer (spec §2.1)', () => {
  it('accepts 1', () => expect(register({ providerId: 1 }).success).toBe(true));
  it.each([0, -1, 1.5, '7', null])('refuses %j', (providerId) =>
    expect(problems(register({ providerId }))[0]).toMatch(/^providerId: /),
  );
});

describe('register: gameId is a positive integer or a non-empty array of distinct ones (decisions.md D4)', () => {
  it('normalises a number to gameIds [n]', () =>
    expect(registerBonusCallRequest.parse({ ...valid, gameId: 5 }).gameIds).toEqual([5]));
  it('keeps an array in order as gameIds', () =>
    expect(registerBonusCallRequest.parse({ ...valid, gameId: [9, 3, 5] }).gameIds).toEqual([9, 3, 5]));
  it('refuses an empty array', () =>
    expect(problems(register({ gameId: [] }))).toEqual(['gameId: gameId must not be an empty array']));
  it('refuses duplicates', () =>
    expect(problems(register({ gameId: [3, 5, 3] }))).toEqual(['gameId: gameId must not list the same game twice']));
  it('refuses non-integers inside the array, naming the element', () => {
    expect(problems(register({ gameId: [3, 1.5] }))[0]).toMatch(/^gameId\[1\]: /);
    expect(problems(register({ gameId: [3, '4'] }))[0]).toMatch(/^gameId\[1\]: /);
  });
  it.each([0, 2.5, '1001', { id: 1 }])('refuses %j', (gameId) =>
    expect(problems(register({ gameId }))[0]).toMatch(/^gameId: /),
  );
  it('refuses more than 100 games', () => {
    const ids = Array.from({ length: 101 }, (_, index) => index + 1);
    expect(problems(register({ gameId: ids }))[0]).toMatch(/^gameId: /);
    expect(register({ gameId: ids.slice(0, 100) }).success).toBe(true);
  });
});

describe('register: playerId 1–50 of A–Z a–z 0–9 _ (spec §2.3, §8)', () => {
  it('accepts 50 characters', () => expect(register({ playerId: 'a'.repeat(50) }).success).toBe(true));
  it('accepts one character and underscores', () => expect(register({ playerId: '_' }).success).toBe(true));
  it.each(['a'.repeat(51), '', 'player-1', 'player 1', 'plàyer'])('refuses %j', (playerId) => {
    expect(problems(register({ playerId }))).toEqual([
      'playerId: playerId must be 1–50 characters of A–Z, a–z, 0–9 or _',
    ]);
  });
  it('refuses a number', () => expect(problems(register({ playerId: 42 }))[0]).toMatch(/^playerId: /));
});

describe('register: bonusType 1 | 2, or FreeSpin / Regular in any case (decisions.md D2)', () => {
  it.each([
    [1, 1],
    [2, 2],
    ['FreeSpin', 1],
    ['freespin', 1],
    ['FREESPIN', 1],
    ['Regular', 2],
    ['REGULAR', 2],
    ['regular', 2],
  ])('%j → %i', (bonusType, expected) => {
    expect(registerBonusCallRequest.parse({ ...valid, bonusType }).bonusType).toBe(expected);
  });
  it.each([0, 3, '1', 'Free Spin', 'free_spin', 'bonus', true, null])('refuses %j', (bonusType) => {
    expect(problems(register({ bonusType }))).toEqual(['bonusType: bonusType must be 1 (FreeSpin) or 2 (Regular)']);
  });
});

describe('register: metaData required for bonusType 1, optional for 2 (spec §4.1 rules 1–2)', () => {
  it('refuses bonusType 1 without metaData', () => {
    expect(problems(register({}, ['metaData']))).toEqual([
      'metaData: metaData with spinAmount and baseBetAmount is required when bonusType is 1',
    ]);
  });
  it('refuses "FreeSpin" without metaData too', () =>
    expect(register({ bonusType: 'freespin' }, ['metaData']).success).toBe(false));
  it('accepts bonusType 2 without metaData, and the output has none', () => {
    const parsed = registerBonusCallRequest.parse({ ...valid, bonusType: 'REGULAR', metaData: undefined });
    expect(parsed.bonusType).toBe(2);
    expect(parsed).not.toHaveProperty('metaData');
  });
  it('checks metaData when bonusType 2 still sends it', () =>
    expect(register({ bonusType: 2, metaData: { spinAmount: 0, baseBetAmount: 1 } }).success).toBe(false));
  it('refuses metaData without one of its fields or with an unknown one', () => {
    expect(problems(register({ metaData: { spinAmount: 5 } }))[0]).toMatch(/^metaData\.baseBetAmount: /);
    expect(problems(register({ metaData: { baseBetAmount: 1 } }))[0]).toMatch(/^metaData\.spinAmount: /);
    expect(problems(register({ metaData: { spinAmount: 5, baseBetAmount: 1, bonus: 1 } }))).toEqual([
      'metaData.bonus: unknown field "bonus"',
    ]);
  });
});

describe('register: spinAmount 1–100 (spec §8)', () => {
  it.each([1, 100])('accepts %i', (spinAmount) =>
    expect(register({ metaData: { spinAmount, baseBetAmount: 1 } }).success).toBe(true),
  );
  it.each([0, 101, 5.5, -1, '10'])('refuses %j', (spinAmount) => {
    expect(problems(register({ metaData: { spinAmount, baseBetAmount: 1 } }))[0]).toMatch(/^metaData\.spinAmount: /);
  });
});

describe('register: callAmount and baseBetAmount are positive finite JSON numbers (spec §2.1)', () => {
  it('accepts decimals (their count is checked against the currency later)', () =>
    expect(register({ callAmount: 12.345 }).success).toBe(true));
  it('accepts up to 10^11 units and refuses more (the minor units must stay safe integers)', () => {
    expect(register({ callAmount: 100_000_000_000 }).success).toBe(true);
    expect(problems(register({ callAmount: 100_000_000_001 }))).toEqual([
      'callAmount: amount must be at most 100000000000',
    ]);
  });
  it.each([0, -5, '50', Number.POSITIVE_INFINITY, Number.NaN, null])('refuses callAmount %j', (callAmount) => {
    expect(problems(register({ callAmount }))[0]).toMatch(/^callAmount: /);
  });
  it.each([0, -0.2, '0.2'])('refuses baseBetAmount %j', (baseBetAmount) => {
    expect(problems(register({ metaData: { spinAmount: 5, baseBetAmount } }))[0]).toMatch(/^metaData\.baseBetAmount: /);
  });
});

describe('register: expireAt is exactly YYYY-MM-DD HH:mm:ss and on the calendar (spec §2.1, decisions.md D5)', () => {
  it.each(['2028-02-29 12:00:00', '2026-12-31 23:59:59'])('accepts %s', (expireAt) =>
    expect(register({ expireAt }).success).toBe(true),
  );
  it.each([
    ['2026-02-30 10:00:00', /day 30 does not exist/],
    ['2027-02-29 10:00:00', /day 29 does not exist/],
    ['2026-06-30 24:00:00', /hour 24/],
    ['2026-06-30T23:59:59Z', /format/],
    ['2026-06-30', /format/],
  ])('refuses %s', (expireAt, reason) => {
    const [problem] = problems(register({ expireAt }));
    expect(problem).toMatch(/^expireAt: /);
    expect(problem).toMatch(reason);
  });
});

describe('register: the optional currency of the bonus call (D6 amended)', () => {
  it('is kept in the normalised output when sent, and absent when not (so older requests hash as before)', () => {
    expect(registerBonusCallRequest.parse({ ...valid, currency: 'KRW' })).toMatchObject({ currency: 'KRW' });
    expect(registerBonusCallRequest.parse(valid)).not.toHaveProperty('currency');
  });
  it('is an ISO 4217 code', () => {
    expect(problems(register({ currency: 'krw' }))).toEqual([
      'currency: currency must be an upper-case ISO 4217 code such as EUR',
    ]);
    expect(problems(register({ currency: 'XYZ' }))).toEqual([
      'currency: currency "XYZ" is not an ISO 4217 code this platform supports',
    ]);
  });
});

describe('register: unknown top-level keys are refused (strict body)', () => {
  it('names the unknown key', () =>
    expect(problems(register({ currencyCode: 'EUR' }))).toEqual(['currencyCode: unknown field "currencyCode"']));
  it('refuses a body that is not an object', () => {
    expect(registerBonusCallRequest.safeParse([valid]).success).toBe(false);
    expect(registerBonusCallRequest.safeParse(null).success).toBe(false);
  });
});

describe('register: any valid body round-trips through parse (property)', () => {
  const localTime = fc
    .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
    .map((date) => date.toISOString().slice(0, 19).replace('T', ' '));
  const body = fc.record({
    platformId: fc.stringMatching(/^[\x21-\x7E](?:[\x20-\x7E]{0,62}[\x21-\x7E])?$/),
    providerId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    gameIds: fc.uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 10 }),
    playerId: fc.stringMatching(/^[A-Za-z0-9_]{1,50}$/),
    bonusType: fc.constantFrom(1, 2),
    callAmount: fc.double({ min: 0.01, max: 1e9, noNaN: true, noDefaultInfinity: true }),
    expireAt: localTime,
    metaData: fc.record({
      spinAmount: fc.integer({ min: 1, max: 100 }),
      baseBetAmount: fc.double({ min: 0.01, max: 1e6, noNaN: true }),
    }),
    useAlias: fc.boolean(),
  });
  it('parse(input) equals the normalised input', () => {
    fc.assert(
      fc.property(body, ({ useAlias, gameIds, platformId, ...rest }) => {
        const input = {
          ...rest,
          ...(useAlias ? { issueId: platformId } : { platformId }),
          gameId: gameIds.length === 1 ? gameIds[0] : gameIds,
        };
        const parsed = registerBonusCallRequest.parse(input);
        expect(parsed).toEqual({ ...rest, platformId, gameIds });
        // Parsing the normalised form written back as a request gives the same result again.
        const { gameIds: ids, ...again } = parsed;
        expect(registerBonusCallRequest.parse({ ...again, gameId: ids })).toEqual(parsed);
      }),
    );
  });
});

describe('cancel: exactly one of issueId and platformId (decisions.md D14)', () => {
  it('accepts {issueId} as a JSON number', () =>
    expect(cancelBonusCallRequest.parse({ issueId: 171234567890123 })).toEqual({ issueId: 171234567890123 }));
  it('accepts {issueId} as a string of digits and outputs a number', () =>
    expect(cancelBonusCallRequest.parse({ issueId: '171234567890123' })).toEqual({ issueId: 171234567890123 }));
  it('accepts {platformId}', () =>
    expect(cancelBonusCallRequest.parse({ platformId: 'promo-0001' })).toEqual({ platformId: 'promo-0001' }));
  it('refuses both, and neither', () => {
    expect(problems(cancelBonusCallRequest.safeParse({ issueId: 1, platformId: 'p' }))).toEqual([
      ': give exactly one of issueId and platformId',
    ]);
    expect(problems(cancelBonusCallRequest.safeParse({}))).toEqual([': give exactly one of issueId and platformId']);
  });
  it.each([0, -1, 1.5, '0', '007', '1e3', ' 12', '9007199254740993', 9007199254740992])(
    'refuses issueId %j',
    (issueId) => {
      expect(problems(cancelBonusCallRequest.safeParse({ issueId }))[0]).toMatch(/^issueId: /);
    },
  );
  it('refuses unknown keys', () =>
    expect(problems(cancelBonusCallRequest.safeParse({ issueId: 1, reason: 'x' }))).toEqual([
      'reason: unknown field "reason"',
    ]));
});

describe('GET /v1/bonus-call/{issueId}: the path segment is a positive integer (decisions.md D13)', () => {
  it('parses digits into a number', () =>
    expect(bonusCallPathParams.parse({ issueId: '42' })).toEqual({ issueId: 42 }));
  it.each(['0', 'abc', '-3', '1.0', '99999999999999999'])('refuses %j', (issueId) =>
    expect(bonusCallPathParams.safeParse({ issueId }).success).toBe(false),
  );
});

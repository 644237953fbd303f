/**
 * Register and cancel a bonus call: `POST /v1/bonus-call/register` (spec §2.1, §4.1) and
 * `POST /v1/bonus-call/cancel` (spec §4.2, decisions.md D14). The schemas accept what the
 * specification and its decisions allow (aliases D1, D2, D4) and output one normalised shape.
 * Rules that need context (decimals of the currency, expireAt in the future, provider and game
 * checks, features) belong to the gateway and the ledger and have codes in the error catalogue.
 */
import * as z from 'zod';
import { allDistinct, catalogId, currencyCode, longId, playerId } from '../shared/primitives.js';
import { longIdNumberOrText, longIdText } from '../shared/ids.js';
import { parseLocalDateTime } from '../time.js';
import { okEnvelope } from './envelope.js';

/**
 * platformId: the operator's own idempotency key for a registration. 1–64 printable ASCII
 * characters, no leading or trailing space. Refused rather than trimmed: silently trimming would
 * make `"A1 "` and `"A1"` the same registration behind the operator's back.
 */
const PLATFORM_ID_PATTERN = /^[\x21-\x7E](?:[\x20-\x7E]{0,62}[\x21-\x7E])?$/;
export const platformId = z
  .string()
  .regex(PLATFORM_ID_PATTERN, {
    error: 'platformId must be 1–64 printable ASCII characters without leading or trailing spaces',
  })
  .meta({
    description: "The operator's unique id of this bonus request (1–64 printable ASCII characters).",
    examples: ['promo-2026-05-0001'],
  });

/** D4: several games may trigger one bonus call; a limit keeps a request and its events small. */
const MAX_GAMES_PER_BONUS_CALL = 100;

const gameIdOrIds = z
  .union(
    [
      catalogId,
      z.array(catalogId).min(1, { error: 'gameId must not be an empty array' }).max(MAX_GAMES_PER_BONUS_CALL),
    ],
    {
      error: 'gameId must be a positive integer or a non-empty array of distinct positive integers',
    },
  )
  .refine((value) => typeof value === 'number' || allDistinct(value), {
    error: 'gameId must not list the same game twice',
  })
  .meta({
    description: `One game id, or a non-empty array of up to ${MAX_GAMES_PER_BONUS_CALL} distinct game ids of the provider, each able to play free spins for a Free Spin Bonus.`,
  });

/** D2: the documented numbers, and the words of the other description in any letter case. */
const FREE_SPIN_WORD = /^[Ff][Rr][Ee][Ee][Ss][Pp][Ii][Nn]$/;
const REGULAR_WORD = /^[Rr][Ee][Gg][Uu][Ll][Aa][Rr]$/;
export const BonusTypes = { freeSpin: 1, regular: 2 } as const;
export type BonusType = (typeof BonusTypes)[keyof typeof BonusTypes];
export const bonusTypeValue = z.union([z.literal(1), z.literal(2)]);

const bonusType = z
  .union(
    [
      z.literal(1),
      z.literal(2),
      z
        .string()
        .regex(FREE_SPIN_WORD)
        .transform((): BonusType => BonusTypes.freeSpin),
      z
        .string()
        .regex(REGULAR_WORD)
        .transform((): BonusType => BonusTypes.regular),
    ],
    { error: 'bonusType must be 1 (FreeSpin) or 2 (Regular)' },
  )
  .meta({
    description:
      '1 = Free Spin Bonus, 2 = Regular Bonus Call; the words FreeSpin / Regular (any case) are accepted too. ' +
      'bonusType 2 is refused (422 BONUS_TYPE_UNAVAILABLE) unless the operator has the regularBonusCall feature; ' +
      "with it, callAmount is delivered exactly through the player's own paid spins in the named games, each of " +
      'which must have supportsRegularBonusCall (GET /v1/games; else 422 REGULAR_BONUS_NOT_SUPPORTED) ' +
      '(bet and win callbacks with bonusId = issueId, completed within 50 spins, a top-up in the last win when ' +
      'no game result pays exactly what is left), expiring at expireAt, cancelable while active.',
  });

/** A wall-clock time `YYYY-MM-DD HH:mm:ss` that is on the calendar; its zone is the operator's (D5). */
const localDateTime = z
  .string()
  .superRefine((value, ctx) => {
    const parsed = parseLocalDateTime(value);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.reason });
  })
  .meta({
    description: 'Wall-clock time YYYY-MM-DD HH:mm:ss in the operator time zone (UTC unless configured).',
    examples: ['2026-06-30 23:59:59'],
  });

/**
 * A positive finite amount in currency units; its decimals are checked against the currency
 * later (AMOUNT_PRECISION). At most 10^11 units, so the amount stays a safe integer in minor
 * units even for a currency with four decimals.
 */
const MAX_CURRENCY_UNITS = 100_000_000_000;
export const currencyUnits = z
  .number()
  .positive()
  .max(MAX_CURRENCY_UNITS, { error: `amount must be at most ${MAX_CURRENCY_UNITS}` });

/** Spec §8: a Free Spin Bonus grants 1–100 spins (the schema and the bonus decider both read these). */
export const MIN_SPIN_AMOUNT = 1;
export const MAX_SPIN_AMOUNT = 100;
/** What an operator is told when spinAmount is outside them, by the schema and by the decider alike. */
export const SPIN_AMOUNT_RULE = `spinAmount must be an integer from ${MIN_SPIN_AMOUNT} to ${MAX_SPIN_AMOUNT}`;

export const spinAmountValue = z
  .number()
  .int({ error: SPIN_AMOUNT_RULE })
  .min(MIN_SPIN_AMOUNT, { error: SPIN_AMOUNT_RULE })
  .max(MAX_SPIN_AMOUNT, { error: SPIN_AMOUNT_RULE });

export const freeSpinMetaData = z
  .strictObject({
    spinAmount: spinAmountValue.meta({
      description: `Number of free spins, ${MIN_SPIN_AMOUNT}–${MAX_SPIN_AMOUNT}.`,
    }),
    baseBetAmount: currencyUnits.meta({
      description:
        'Bet per free spin in currency units of the bonus currency: a bet level of every game of the bonus in that currency (else 422 BET_LEVEL_NOT_AVAILABLE with the levels) and at most the operator limit for that currency (else 422 BASE_BET_LIMIT_EXCEEDED).',
    }),
  })
  .meta({ description: 'Free Spin Bonus configuration; required when bonusType is 1.' });

/**
 * The terms of a registration: every field but the ids (platformId, playerId). A campaign
 * (`POST /v1/bonus-call/campaigns`) sends them once for many players.
 */
export const registrationTermsShape = {
  providerId: catalogId,
  gameId: gameIdOrIds,
  bonusType,
  callAmount: currencyUnits.meta({
    description:
      'bonusType 1: win cap over all free spins; bonusType 2: the target win. Currency units of the bonus currency, at most the operator limit for that currency (else 422 naming the limit).',
  }),
  currency: currencyCode.optional().meta({
    description:
      "The bonus call's currency (ISO 4217), fixed for its life: its amounts are in it and its free spins play only in a game session of it. The operator's default currency when omitted; one of the operator's allowed currencies.",
    examples: ['EUR', 'KRW'],
  }),
  expireAt: localDateTime,
  metaData: freeSpinMetaData.optional(),
};

interface RegistrationTermsBody {
  providerId: number;
  gameId: number | number[];
  bonusType: BonusType;
  callAmount: number;
  currency?: string | undefined;
  expireAt: string;
  metaData?: { spinAmount: number; baseBetAmount: number } | undefined;
}

/** A Free Spin Bonus needs its metaData (a rule across fields, so not in the field schemas). */
export function requireFreeSpinMetaData(body: RegistrationTermsBody, ctx: z.RefinementCtx): void {
  if (body.bonusType === BonusTypes.freeSpin && body.metaData === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['metaData'],
      message: 'metaData with spinAmount and baseBetAmount is required when bonusType is 1',
    });
  }
}

/** The terms as a registration request carries them after its schema: one gameId becomes a list. */
export function normalisedTerms(body: RegistrationTermsBody) {
  const normalised = {
    providerId: body.providerId,
    gameIds: typeof body.gameId === 'number' ? [body.gameId] : [...body.gameId],
    bonusType: body.bonusType,
    callAmount: body.callAmount,
    // Only when sent: a request without it hashes as it did before the field existed (D17).
    ...(body.currency === undefined ? {} : { currency: body.currency }),
    expireAt: body.expireAt,
  };
  return body.metaData === undefined ? normalised : { ...normalised, metaData: { ...body.metaData } };
}

const registerBody = z
  .strictObject({
    platformId: platformId.optional(),
    issueId: platformId.optional().meta({
      description:
        'Alias of platformId, accepted because the specification’s sample request names it so; both present and different is a 400.',
    }),
    // In the order of the specification's field list (the OpenAPI document shows them so).
    providerId: registrationTermsShape.providerId,
    gameId: registrationTermsShape.gameId,
    playerId,
    bonusType: registrationTermsShape.bonusType,
    callAmount: registrationTermsShape.callAmount,
    currency: registrationTermsShape.currency,
    expireAt: registrationTermsShape.expireAt,
    metaData: registrationTermsShape.metaData,
  })
  .superRefine((body, ctx) => {
    if (body.platformId === undefined && body.issueId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['platformId'], message: 'platformId is required' });
    }
    if (body.platformId !== undefined && body.issueId !== undefined && body.platformId !== body.issueId) {
      ctx.addIssue({
        code: 'custom',
        path: ['issueId'],
        message: 'issueId is an alias of platformId; when both are given they must be equal',
      });
    }
    requireFreeSpinMetaData(body, ctx);
  });

export const registerBonusCallRequest = registerBody
  .transform((body) => {
    const { providerId, gameIds, bonusType, callAmount, expireAt, ...rest } = normalisedTerms(body);
    // The key order of before the terms were shared (the hash sorts keys, so order is cosmetic).
    return {
      platformId: (body.platformId ?? body.issueId) as string,
      providerId,
      gameIds,
      playerId: body.playerId,
      bonusType,
      callAmount,
      expireAt,
      ...rest,
    };
  })
  .meta({
    id: 'RegisterBonusCallRequest',
    description: 'Body of POST /v1/bonus-call/register.',
    examples: [
      {
        platformId: 'promo-2026-05-0001',
        providerId: 7,
        gameId: [1001, 1002],
        playerId: 'player_42',
        bonusType: 1,
        callAmount: 50,
        expireAt: '2026-06-30 23:59:59',
        metaData: { spinAmount: 10, baseBetAmount: 0.2 },
      },
      {
        issueId: 'promo-2026-05-0002',
        providerId: 7,
        gameId: 1001,
        playerId: 'player_42',
        bonusType: 'FreeSpin',
        callAmount: 20,
        expireAt: '2026-07-01 12:00:00',
        metaData: { spinAmount: 5, baseBetAmount: 1 },
      },
      {
        platformId: 'promo-2026-05-0004',
        providerId: 7,
        gameId: [1001, 1002],
        playerId: 'player_43',
        bonusType: 1,
        callAmount: 50000,
        currency: 'KRW',
        expireAt: '2026-06-30 23:59:59',
        metaData: { spinAmount: 10, baseBetAmount: 200 },
      },
      {
        platformId: 'target-2026-05-0003',
        providerId: 7,
        gameId: 1001,
        playerId: 'player_7',
        bonusType: 2,
        callAmount: 100,
        expireAt: '2026-07-01 12:00:00',
      },
    ],
  });

export type RegisterBonusCallInput = z.input<typeof registerBonusCallRequest>;
export type RegisterBonusCallRequest = z.output<typeof registerBonusCallRequest>;

export const registerBonusCallResponse = okEnvelope(
  z.object({ issueId: longId.meta({ description: 'Id of the registered bonus call.' }) }),
).meta({
  id: 'RegisterBonusCallResponse',
  description:
    'The issueId of the bonus call. A resent identical request answers the same issueId with the header Idempotent-Replayed: true.',
  examples: [{ success: true, message: 'OK', data: { issueId: 171234567890123 } }],
});

/** How a bonus call is addressed: by the platform's issueId or by the operator's platformId (D14). */
export type BonusCallRef = { issueId: number } | { platformId: string };

/**
 * Cancel body: exactly one of issueId and platformId. issueId is a JSON number (D7); a string of
 * digits is also accepted, because operators that keep long ids as strings send them that way.
 */
const cancelBody = z
  .strictObject({
    issueId: longIdNumberOrText
      .optional()
      .meta({ description: 'The issueId returned by register (a number; a string of digits is accepted).' }),
    platformId: platformId.optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.issueId === undefined) === (body.platformId === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of issueId and platformId' });
    }
  });

export const cancelBonusCallRequest = cancelBody
  .transform((body): BonusCallRef =>
    body.issueId !== undefined ? { issueId: body.issueId } : { platformId: body.platformId as string },
  )
  .meta({
    id: 'CancelBonusCallRequest',
    description: 'Body of POST /v1/bonus-call/cancel: exactly one of issueId and platformId.',
    examples: [{ issueId: 171234567890123 }, { issueId: '171234567890123' }, { platformId: 'promo-2026-05-0001' }],
  });

export const cancelBonusCallResponse = okEnvelope(z.object({ issueId: longId, status: z.literal('canceled') })).meta({
  id: 'CancelBonusCallResponse',
  description: 'The bonus call is canceled (also when it already was: a repeated cancel answers 200 again).',
  examples: [{ success: true, message: 'OK', data: { issueId: 171234567890123, status: 'canceled' } }],
});

/** `{issueId}` of `GET /v1/bonus-call/{issueId}` (D13): a path segment, so digits only. */
export const bonusCallPathParams = z.strictObject({ issueId: longIdText }).meta({
  id: 'BonusCallPathParams',
  description: 'Path parameters of GET /v1/bonus-call/{issueId}.',
  examples: [{ issueId: '171234567890123' }],
});

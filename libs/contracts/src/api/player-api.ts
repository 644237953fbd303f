/**
 * The player API of the launch host (decisions.md D23), called by the game page: read the session
 * (`GET /api/sessions/{token}`), spin (`POST /api/sessions/{token}/spin`), read one of the
 * session's rounds (`GET /api/sessions/{token}/rounds/{roundId}`). The token is the only
 * credential: every answer is about the session's own player. Amounts are JSON numbers in
 * currency units, as in API v1; errors use the same envelope (D16).
 */
import * as z from 'zod';
import { bonusCallStatusName } from '../commands/bonus-record.js';
import { catalogId, currencyCode, httpUrl, isoInstant, longId, playerId } from '../shared/primitives.js';
import { spinAmountValue } from './bonus-call.js';
import { GAME_TYPES } from './catalog.js';
import { okEnvelope } from './envelope.js';

const units = z.number().min(0);

const slotSymbolView = z.strictObject({
  code: z.string().length(1),
  name: z.string().min(1),
  role: z.enum(['wild', 'scatter', 'regular']),
});

/** What the page needs to draw the game: never the reel strips, only their shape and symbols. */
const gameLayout = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('slot'),
    reels: z.number().int().min(1),
    rows: z.number().int().min(1),
    symbols: z.array(slotSymbolView).min(1),
    /** One row index per reel for every payline. */
    paylines: z.array(z.array(z.number().int().min(0))),
  }),
  z.strictObject({
    kind: z.literal('instant'),
    /** The wheel's segments as win multipliers of the bet (0 = no win), in wheel order. */
    segments: z.array(z.number().min(0)).min(2),
  }),
]);
export type GameLayout = z.infer<typeof gameLayout>;

/** The currency of a bonus view: the bonus call's, in which its amounts are. */
const bonusViewCurrency = currencyCode.meta({
  description: "The bonus call's currency (fixed at registration): the amounts of this view are in it.",
});

const playerBonusView = z
  .strictObject({
    issueId: longId,
    status: bonusCallStatusName,
    currency: bonusViewCurrency,
    playable: z.boolean().meta({
      description:
        'false when the bonus call is in another currency than this session: its free spins are played only in a session of its currency, and spins here are paid.',
    }),
    spinAmount: spinAmountValue,
    spinsUsed: z.number().int().min(0),
    spinsLeft: z.number().int().min(0),
    baseBet: units.meta({ description: 'The bet every free spin is played at.' }),
    winSoFar: units,
    winCap: units.meta({ description: 'The most the bonus can pay over all its spins (callAmount).' }),
    winCapLeft: units,
    expireAt: isoInstant,
  })
  .meta({
    id: 'PlayerBonus',
    description:
      "The session player's free-spin bonus for this game, as the free-spins badge shows it (or, when not playable, the notice that it is in another currency).",
  });
export type PlayerBonusView = z.infer<typeof playerBonusView>;

const playerRegularBonusView = z
  .strictObject({
    bonusType: z.literal(2),
    issueId: longId,
    status: bonusCallStatusName,
    currency: bonusViewCurrency,
    playable: z.boolean().meta({
      description:
        "false when this session's paid spins are not steered by it: another currency, or a game it cannot steer (the instant game). Its paid spins in this session are then ordinary.",
    }),
    callAmount: units.meta({ description: 'The target the bonus delivers through paid spins.' }),
    delivered: units.meta({ description: 'What its steered spins paid so far (a top-up included).' }),
    left: units.meta({ description: 'callAmount − delivered.' }),
    spinsUsed: z.number().int().min(0),
    expireAt: isoInstant,
  })
  .meta({
    id: 'PlayerRegularBonus',
    description:
      "The session player's Regular Bonus Call (bonusType 2) for this game: a target paid through the player's own paid spins (docs/adr/0012-regular-bonus-call-outcomes.md), as the bonus badge shows its progress.",
  });
export type PlayerRegularBonusView = z.infer<typeof playerRegularBonusView>;

export const playerSession = z
  .strictObject({
    playerId,
    game: z.strictObject({
      gameId: catalogId,
      providerId: catalogId,
      name: z.string().min(1),
      type: z.enum(GAME_TYPES),
    }),
    layout: gameLayout,
    currency: currencyCode,
    /** The launch language, normalised (`zh-CN`); the page falls back to English for one it has no texts for. */
    language: z.string().min(2),
    returnUrl: httpUrl,
    demo: z.boolean(),
    balance: z.number().nullable().meta({
      description:
        "The balance the operator's wallet's last answer carried (a bet's, or a win's once the wallet answered it), rounded half to even to the currency's minor units; never a balance the wallet has not confirmed. null before the first answer known; a demo session's play money.",
    }),
    pendingWin: units.meta({
      description:
        "Wins sent to the operator's wallet whose answer is not known yet: not in `balance`. Once the wallet answers, `balance` is its answer and this is 0 again. Always 0 in a demo session.",
    }),
    betLevels: z.array(z.number().positive()).min(1),
    activeBonus: z.union([playerBonusView, playerRegularBonusView]).nullable().meta({
      description:
        'The free-spin bonus (no bonusType) or the Regular Bonus Call (bonusType 2) of the session player for this game; null when none.',
    }),
    expiresAt: isoInstant,
  })
  .meta({
    id: 'PlayerSession',
    description: 'GET /api/sessions/{token}: the session as the game page shows it.',
  });
export type PlayerSession = z.infer<typeof playerSession>;

export const spinRequest = z
  .strictObject({
    bet: z
      .number()
      .positive()
      .finite()
      .optional()
      .meta({ description: 'One of betLevels; required for a paid spin, ignored for a free spin.' }),
    issueId: longId
      .optional()
      .meta({ description: 'The free-spin bonus the page believes it plays; a spin of any other bonus is refused.' }),
    playerId: playerId.optional().meta({ description: "When given, must be the session's player." }),
  })
  .meta({
    id: 'SpinRequest',
    description:
      'POST /api/sessions/{token}/spin. A free spin is played whenever the session player has an active free-spin bonus for this game.',
  });
export type SpinRequest = z.infer<typeof spinRequest>;

const lineWinView = z.strictObject({
  line: z.number().int().min(0),
  symbol: z.string().length(1),
  count: z.number().int().min(1),
  win: units,
});

const slotSpinView = z.strictObject({
  /** Visible symbols, one string per reel, top row first. */
  window: z.array(z.string().min(1)).min(1),
  lineWins: z.array(lineWinView),
  scatterCount: z.number().int().min(0),
  scatterWin: units,
  multiplier: z.number().int().min(1),
  win: units,
});

const roundOutcomeView = z.discriminatedUnion('kind', [
  slotSpinView.extend({
    kind: z.literal('slot'),
    /** The game's own feature (scatter-triggered bonus games), when the spin triggered it. */
    feature: z
      .strictObject({
        awardedGames: z.number().int().min(1),
        multiplier: z.number().int().min(1),
        spins: z.array(slotSpinView),
        win: units,
      })
      .nullable(),
  }),
  z.strictObject({ kind: z.literal('instant'), segment: z.number().int().min(0), multiplier: z.number().min(0) }),
]);
export type RoundOutcomeView = z.infer<typeof roundOutcomeView>;

const SPIN_KINDS = ['paid', 'free', 'demo'] as const;

const spinBonusView = z.strictObject({
  issueId: longId,
  spinNumber: z.number().int().min(1),
  spinsLeft: z.number().int().min(0),
  winSoFar: units,
  winCapLeft: units,
  /** The spin's win was cut to what was left of the win cap. */
  capped: z.boolean(),
  /** This spin completed the bonus (spins used or win cap reached, D20). */
  completed: z.boolean(),
});

const regularBonusSpinView = z.strictObject({
  bonusType: z.literal(2),
  issueId: longId,
  /** The number of this steered spin under the bonus, from 1. */
  spinNumber: z.number().int().min(1),
  callAmount: units,
  /** What the bonus's steered spins paid so far, this one included. */
  delivered: units,
  /** callAmount − delivered. */
  left: units,
  /** The part of this spin's win not paid by the reels: the rest that completes the target (ADR 0012); usually 0. */
  topUp: units,
  /** The bonus's status after this spin (a spin whose bet was in flight when it ended may follow its completion). */
  status: bonusCallStatusName,
  /** This spin completed the bonus (its target is delivered). */
  completed: z.boolean(),
});

export const spinResult = z
  .strictObject({
    roundId: longId,
    kind: z.enum(SPIN_KINDS),
    /** The currency of bet, win and balance (the session's; a free spin's bonus is in the same one). */
    currency: currencyCode,
    bet: units,
    win: units,
    balance: z.number().nullable().meta({
      description:
        "The wallet's last confirmed balance: a paid spin's is its bet's answer (a betwin's includes the win); the win of a bet or free spin is sent after the answer and is in `pendingWin` until the wallet answers it (read the session to follow it). A demo spin's play money. null before the wallet's first answer known.",
    }),
    pendingWin: units.meta({
      description: 'Wins sent whose answer is not known yet, this spin’s included: not in `balance`.',
    }),
    outcome: roundOutcomeView,
    bonus: z.union([spinBonusView, regularBonusSpinView]).nullable().meta({
      description:
        "The bonus after this spin: a free spin's progress (no bonusType), or, for a paid spin steered by the player's Regular Bonus Call, that bonus's progress (bonusType 2); null for any other spin.",
    }),
  })
  .meta({
    id: 'SpinResult',
    description: 'The settled round of a spin: what the reels show, what it paid, and the bonus after it.',
  });
export type SpinResult = z.infer<typeof spinResult>;

const ROUND_STATUSES = ['open', 'settled', 'canceled'] as const;

export const playerRound = z
  .strictObject({
    roundId: longId,
    kind: z.enum(['paid', 'free']),
    status: z.enum(ROUND_STATUSES),
    /** The currency of bet and win. */
    currency: currencyCode,
    bet: units,
    win: units.nullable(),
    outcome: roundOutcomeView.nullable(),
    /** Why a canceled round was canceled, as a code (`bet_rejected:ERR_NOT_ENOUGH_MONEY`): never the operator's own words. */
    reason: z.string().nullable(),
    startedAt: isoInstant,
  })
  .meta({
    id: 'PlayerRound',
    description: 'GET /api/sessions/{token}/rounds/{roundId}: one round of the session, replayed from its record.',
  });
export type PlayerRound = z.infer<typeof playerRound>;

export const playerSessionResponse = okEnvelope(playerSession);
export const spinResponse = okEnvelope(spinResult);
export const playerRoundResponse = okEnvelope(playerRound);

/** Events of a `round` stream: one game round with its RNG outcome, replayable and auditable. */
import * as z from 'zod';
import { bonusIdValue } from '../shared/ids.js';
import { catalogId, currencyCode, isoInstant, longId, minorAmount, operatorPlayer } from '../shared/primitives.js';
import { eventOf } from './metadata.js';
import { sessionToken } from './session.js';

const ROUND_KINDS = ['paid', 'free'] as const;
const RTP_PROFILES = ['standard', 'streamer'] as const;

export const roundStartedData = z
  .strictObject({
    roundId: longId,
    /** The session's GameSessionStarted `token`: `sessionKeyOf(token)`, never the launch token of a session started since. */
    sessionToken,
    ...operatorPlayer,
    providerId: catalogId,
    gameId: catalogId,
    /** `free`: a free spin of a bonus call, no wallet bet (D10). */
    kind: z.enum(ROUND_KINDS),
    currency: currencyCode,
    /** The stake the outcome is computed for (the base bet for a free spin). */
    betMinor: minorAmount,
    bonusId: bonusIdValue,
    rtpProfile: z.enum(RTP_PROFILES),
    startedAt: isoInstant,
    /**
     * The bet (or betwin) transaction of a paid round, fixed before the wallet is asked: a round
     * whose answer never came is resolved by asking again with the same transactionId.
     */
    transactionId: longId.optional(),
    /** D21 as sent with the bet, so the same request can be sent again. */
    isBonusBusy: z.boolean().optional(),
    /**
     * The engine's record when the outcome is decided before money moves: the instant game (bet
     * and win in one betwin) and free spins (the win goes to the bonus-ledger after play).
     */
    outcome: z.json().optional(),
  })
  .superRefine((data, ctx) => {
    if (data.kind === 'free' && data.bonusId === 0)
      ctx.addIssue({ code: 'custom', path: ['bonusId'], message: 'a free round belongs to a bonus call' });
    if (data.kind === 'paid' && data.betMinor === 0)
      ctx.addIssue({ code: 'custom', path: ['betMinor'], message: 'a paid round has a bet' });
    if (data.kind === 'free' && data.transactionId !== undefined)
      ctx.addIssue({ code: 'custom', path: ['transactionId'], message: 'a free round has no bet transaction (D10)' });
  });

export const roundSettledData = z.strictObject({
  roundId: longId,
  /** The engine's record of the round (RNG draws, reel stops, …): JSON, opaque to contracts. */
  outcome: z.json(),
  winMinor: minorAmount,
  settledAt: isoInstant,
  /**
   * The transactionId of the round's `win` callback, fixed here so the game-server's relay always
   * publishes the same one. Absent when the round sends no win of its own: a betwin round, or a
   * free spin, whose win the bonus-ledger sends (D10).
   */
  winTransactionId: longId.optional(),
  /**
   * A paid spin steered by a Regular Bonus Call that completes it (docs/adr/0012-regular-bonus-call-outcomes.md):
   * the top-up paid on top of what the reels paid; winMinor includes it. Absent on every other round.
   */
  topUpMinor: minorAmount.optional(),
});

export const roundCanceledData = z.strictObject({
  roundId: longId,
  /** Why, e.g. `bet_rejected:ERR_NOT_ENOUGH_MONEY`, `bet_timeout`. */
  reason: z.string().min(1).max(1000),
  canceledAt: isoInstant,
});

export const RoundEventTypes = {
  RoundStarted: 'RoundStarted',
  RoundSettled: 'RoundSettled',
  RoundCanceled: 'RoundCanceled',
} as const;

const roundStarted = eventOf(RoundEventTypes.RoundStarted, roundStartedData);
const roundSettled = eventOf(RoundEventTypes.RoundSettled, roundSettledData);
const roundCanceled = eventOf(RoundEventTypes.RoundCanceled, roundCanceledData);
export const roundEvent = z.discriminatedUnion('type', [roundStarted, roundSettled, roundCanceled]);

export type RoundStarted = z.infer<typeof roundStarted>;
export type RoundSettled = z.infer<typeof roundSettled>;
export type RoundCanceled = z.infer<typeof roundCanceled>;
export type RoundEvent = z.infer<typeof roundEvent>;

/**
 * Which round a spin is and what it may stake (D23, D21, D6 amended), and how a paid round ends on
 * the wallet's answer (docs/architecture.md flow 3). Pure: the caller brings the session, the ledger's record of
 * the player's active bonus, the wallet's answer, the drawn outcome and the time.
 */
import {
  BonusTypes,
  type BonusCallRecord,
  type ErrorCode,
  type RoundCanceled,
  type WalletReply,
} from '@reelstream/contracts';
import { formatAmount, tryParseAmount } from '@reelstream/money';
import { InvariantError } from '../model-error.js';
import { refusal, type Refusal } from '@reelstream/contracts';
import type { RoundEnd, RoundStartedData } from './round-decider.js';
import type { RoundOutcome } from './round-outcome.js';
import { storedRecord } from './stored-record.js';

/** The active bonus when it gives free spins in this session's game (a spin still open counts). */
export function freeSpinBonusFor(bonus: BonusCallRecord | null, gameId: number): BonusCallRecord | undefined {
  if (!bonus || bonus.status !== 'active' || bonus.bonusType !== BonusTypes.freeSpin || !bonus.gameIds.includes(gameId))
    return undefined;
  if (bonus.spinAmount === null || bonus.baseBetAmountMinor === null) return undefined;
  return (bonus.spinsLeft ?? 0) > 0 || bonus.openRoundId !== null ? bonus : undefined;
}

/** D6 amended: a bonus call's free spins are played only in a session of its currency; nothing is converted. */
export function playableIn(bonus: BonusCallRecord, session: { readonly currency: string }): boolean {
  return bonus.currency === session.currency;
}

/** The active bonus when it is a Regular Bonus Call for this game, whatever the session's currency (the badge shows it). */
export function regularBonusOf(bonus: BonusCallRecord | null, gameId: number): BonusCallRecord | undefined {
  if (!bonus || bonus.status !== 'active' || bonus.bonusType !== BonusTypes.regular) return undefined;
  return bonus.gameIds.includes(gameId) ? bonus : undefined;
}

/**
 * The active bonus when it is a Regular Bonus Call that steers paid spins in this session (ADR 0012):
 * active, for this game, in this session's currency.
 */
export function regularBonusFor(
  bonus: BonusCallRecord | null,
  session: { readonly gameId: number; readonly currency: string },
): BonusCallRecord | undefined {
  const regular = regularBonusOf(bonus, session.gameId);
  return regular && playableIn(regular, session) ? regular : undefined;
}

export type SpinKind =
  | { readonly kind: 'free'; readonly bonus: BonusCallRecord }
  /** D21: `isBonusBusy` when the player has an active bonus call at the time of the bet. */
  | { readonly kind: 'paid'; readonly isBonusBusy: boolean };

/**
 * A free spin when the player's active bonus gives free spins in this game and currency; otherwise
 * a paid spin. A spin naming a bonus (`issueId`) must be a free spin of exactly that bonus.
 */
export function spinKindOf(
  active: BonusCallRecord | null,
  session: { readonly gameId: number; readonly currency: string },
  issueId: number | undefined,
): SpinKind | Refusal {
  const bonus = freeSpinBonusFor(active, session.gameId);
  if (issueId !== undefined && issueId !== bonus?.issueId)
    return refusal('BONUS_NOT_FOUND', 'This session has no active free-spin bonus with that id.');
  if (bonus && playableIn(bonus, session)) return { kind: 'free', bonus };
  if (bonus && issueId !== undefined) {
    return refusal('BONUS_CURRENCY_MISMATCH', undefined, {
      details: [
        {
          path: 'issueId',
          message: `bonus ${bonus.issueId} is in ${bonus.currency}; this session plays in ${session.currency}`,
        },
      ],
    });
  }
  return { kind: 'paid', isBonusBusy: active !== null && active.status === 'active' };
}

/** The stake of a paid or demo spin in minor units: one of the game's bet levels in the session's currency. */
export function betOf(bet: number | undefined, betLevelsMinor: readonly number[], currency: string): number | Refusal {
  if (bet === undefined)
    return refusal('VALIDATION_FAILED', 'A paid spin needs a bet.', {
      details: [{ path: 'bet', message: 'required for a paid spin' }],
    });
  const parsed = tryParseAmount(bet, currency);
  if (!parsed.ok)
    return refusal(
      parsed.error.code === 'AMOUNT_PRECISION' ? 'AMOUNT_PRECISION' : 'VALIDATION_FAILED',
      parsed.error.message,
      { details: [{ path: 'bet', message: parsed.error.message }] },
    );
  if (!betLevelsMinor.includes(parsed.minor)) {
    const levels = betLevelsMinor.map((minor) => formatAmount(minor, currency)).join(', ');
    return refusal('BET_NOT_ALLOWED', undefined, { details: [{ path: 'bet', message: `must be one of ${levels}` }] });
  }
  return parsed.minor;
}

/**
 * The player is told why the bet was refused, and which round it was (as a bet not answered in time is); the
 * round is canceled either way (the dispatcher sends the cancel).
 */
export function betRefusalOf(statusCode: WalletReply['statusCode'] | undefined, roundId: number): Refusal {
  const details = [
    { path: 'statusCode', message: statusCode ?? 'ERR_UNKNOWN' },
    { path: 'roundId', message: String(roundId) },
  ];
  if (statusCode === 'ERR_NOT_ENOUGH_MONEY') return refusal('INSUFFICIENT_FUNDS', undefined, { details });
  if (statusCode === 'ERR_NOT_AUTHENTICATED') return refusal('PLAYER_NOT_AUTHENTICATED', undefined, { details });
  return refusal('BET_REJECTED', undefined, { details });
}

export interface PaidRoundAnswer {
  readonly started: RoundStartedData;
  readonly answer: WalletReply;
  /** The round's outcome when the bet was accepted: the one recorded in RoundStarted (betwin) or drawn now (bet). */
  readonly outcome?: RoundOutcome;
  /** The transaction of the win the outbox sends for a bet (a betwin's win went with it). */
  readonly winTransactionId?: number;
  /** A steered spin that completes its Regular Bonus Call: paid on top of the outcome's win (ADR 0012). */
  readonly topUpMinor?: number;
  readonly now: string;
}

/** R28: the wallet took the bet only when it answered OK; a refusal or no answer (ERR_UNKNOWN) cancels the round. */
export function betAccepted(answer: Pick<WalletReply, 'statusCode'>): boolean {
  return answer.statusCode === 'OK';
}

/** RoundSettled with the outcome when the wallet took the bet, RoundCanceled with its reason otherwise. */
export function paidRoundEnd({
  started,
  answer,
  outcome,
  winTransactionId,
  topUpMinor,
  now,
}: PaidRoundAnswer): RoundEnd {
  if (!betAccepted(answer)) {
    const reason = `bet_rejected:${answer.statusCode}${answer.reason ? ` (${answer.reason})` : ''}`.slice(0, 1000);
    return { type: 'RoundCanceled', data: { roundId: started.roundId, reason, canceledAt: now } };
  }
  if (outcome === undefined) throw new InvariantError(`paid round ${started.roundId} was accepted without an outcome`);
  return {
    type: 'RoundSettled',
    data: {
      roundId: started.roundId,
      outcome: storedRecord(outcome),
      winMinor: outcome.winMinor + (topUpMinor ?? 0),
      settledAt: now,
      ...(winTransactionId === undefined ? {} : { winTransactionId }),
      ...(topUpMinor ? { topUpMinor } : {}),
    },
  };
}

/**
 * Ledger refusals of a settle after which the round is canceled: the ledger has no started spin
 * for it. A spin the ledger started settles whatever happened to the bonus since,
 * so these come only for a round the ledger never started.
 */
const FORFEITING: readonly ErrorCode[] = ['BONUS_EXPIRED', 'BONUS_NOT_ACTIVE', 'BONUS_NOT_FOUND'];

/** The end of a free round whose settle the ledger refused, or undefined when the refusal leaves the round open. */
export function forfeitedFreeRound(roundId: number, refusal: ErrorCode, now: string): RoundCanceled | undefined {
  if (!FORFEITING.includes(refusal)) return undefined;
  return { type: 'RoundCanceled', data: { roundId, reason: `free_spin_refused:${refusal}`, canceledAt: now } };
}

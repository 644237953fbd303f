/**
 * How a bonus call ends early (spec §3, decisions.md D14): ExpireBonusCall at expireAt (spins not
 * started forfeited, wins kept, the spin in flight still settles) and CancelBonusCall (refused once completed or expired, idempotent once
 * canceled).
 */
import {
  refusal,
  type BonusCallCanceled,
  type BonusCallExpired,
  type PlayerBonusEvent,
  type Refusal,
} from '@reelstream/contracts';
import type { CancelBonusCall, ExpireBonusCall } from './commands.js';
import { isAtOrAfter, type BonusCall, type PlayerBonusAccount } from './state.js';

/**
 * Spins that will never be played: the ones not started. A spin started and not settled yet is
 * used, not forfeited: it settles with its win after the end.
 */
function spinsForfeited(bonus: BonusCall): number {
  return bonus.spinAmount === null ? 0 : bonus.spinAmount - bonus.spinsUsed;
}

export function expiryOf(bonus: BonusCall, now: string): BonusCallExpired['data'] {
  return {
    issueId: bonus.issueId,
    spinsForfeited: spinsForfeited(bonus),
    totalWinMinor: bonus.totalWinMinor,
    expiredAt: now,
  };
}

export function decideExpire(command: ExpireBonusCall, account: PlayerBonusAccount): PlayerBonusEvent[] | Refusal {
  const bonus = account.bonuses.get(command.data.issueId);
  if (!bonus) return refusal('BONUS_NOT_FOUND', `no bonus call ${command.data.issueId} for this player`);
  // Already over, or not due yet (a timer that fired early): nothing to do.
  if (bonus.status !== 'active' || !isAtOrAfter(command.metadata.now, bonus.expireAt)) return [];
  const expired: BonusCallExpired = { type: 'BonusCallExpired', data: expiryOf(bonus, command.metadata.now) };
  return [expired];
}

export function decideCancel(command: CancelBonusCall, account: PlayerBonusAccount): PlayerBonusEvent[] | Refusal {
  const bonus = account.bonuses.get(command.data.issueId);
  if (!bonus) return refusal('BONUS_NOT_FOUND', `no bonus call ${command.data.issueId} for this player`);
  switch (bonus.status) {
    case 'canceled':
      return [];
    case 'completed':
      return refusal(
        'BONUS_ALREADY_COMPLETED',
        `bonus call ${bonus.issueId} is completed (fully delivered) and cannot be canceled`,
      );
    case 'expired':
      return refusal('BONUS_EXPIRED', `bonus call ${bonus.issueId} has expired`);
    case 'active': {
      // Past expireAt it has expired, whether or not the expiry timer has written it yet.
      if (isAtOrAfter(command.metadata.now, bonus.expireAt))
        return refusal('BONUS_EXPIRED', `bonus call ${bonus.issueId} expired at ${bonus.expireAt}`);
      const canceled: BonusCallCanceled = {
        type: 'BonusCallCanceled',
        data: {
          issueId: bonus.issueId,
          spinsForfeited: spinsForfeited(bonus),
          totalWinMinor: bonus.totalWinMinor,
          canceledAt: command.metadata.now,
        },
      };
      return [canceled];
    }
    default: {
      const unexpected: never = bonus.status;
      throw new Error(`unknown bonus status ${String(unexpected)}`);
    }
  }
}

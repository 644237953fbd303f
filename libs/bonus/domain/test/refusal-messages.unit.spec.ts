/**
 * A refusal goes back to the game and, through the gateway, to the operator: its message names the
 * bonus call, round, game or amount it refuses, not only the code.
 */
import { describe, it } from '@jest/globals';
import type { PlayerBonusEvent } from '@reelstream/contracts';
import { deciderSpecification } from '@reelstream/testing';
import type { SettleRegularSpin } from '../src/index.js';
import { bonusDecider } from '../src/index.js';
import { at, EXPIRE_AT, ISSUE, registered, regularRegistered, settle, start, started } from './fixtures.js';

const spec = deciderSpecification(bonusDecider);

const expired: PlayerBonusEvent = {
  type: 'BonusCallExpired',
  data: { issueId: ISSUE, spinsForfeited: 10, totalWinMinor: 0, expiredAt: EXPIRE_AT },
};

function steer(data: Partial<SettleRegularSpin['data']>): SettleRegularSpin {
  return {
    type: 'SettleRegularSpin',
    data: {
      issueId: ISSUE,
      roundId: 1,
      gameId: 101,
      betMinor: 100,
      reelWinMinor: 0,
      topUpMinor: 0,
      outcome: { modelId: 'lotus-garden', profile: 'standard', betMinor: 100, draws: [1, 2, 3, 4, 5] },
      ...data,
    },
    metadata: { now: at(1_000) },
  };
}

describe('the messages of the bonus refusals', () => {
  it('a free spin names the bonus call, the game and the round it cannot play', () => {
    spec
      .given([])
      .when(start(1))
      .thenFails({ code: 'BONUS_NOT_FOUND', message: `no bonus call ${ISSUE} for this player` });
    spec
      .given([registered(), expired])
      .when(start(1))
      .thenFails({ code: 'BONUS_EXPIRED', message: `bonus call ${ISSUE} has expired` });
    spec
      .given([registered()])
      .when(start(1, { gameId: 103 }))
      .thenFails({ code: 'GAME_NOT_IN_BONUS', message: `game 103 is not one of the games of bonus call ${ISSUE}` });
    spec
      .given([registered(), started(1, 1)])
      .when(start(2))
      .thenFails({
        code: 'FREE_SPIN_IN_PROGRESS',
        message: `free spin round 1 of bonus call ${ISSUE} is not settled yet`,
      });
  });

  it('a free spin names the bonus call that is over, past expireAt, or in another currency', () => {
    const canceled: PlayerBonusEvent = {
      type: 'BonusCallCanceled',
      data: { issueId: ISSUE, spinsForfeited: 10, totalWinMinor: 0, canceledAt: at(500) },
    };
    spec
      .given([registered(), canceled])
      .when(start(1))
      .thenFails({ code: 'BONUS_NOT_ACTIVE', message: `bonus call ${ISSUE} is canceled` });
    spec
      .given([registered()])
      .when(start(1, {}, EXPIRE_AT))
      .thenFails({ code: 'BONUS_EXPIRED', message: `bonus call ${ISSUE} expired at ${EXPIRE_AT}` });
    spec
      .given([registered()])
      .when(start(1, { currency: 'USD' }))
      .thenFails({
        code: 'BONUS_CURRENCY_MISMATCH',
        message: `bonus call ${ISSUE} is in EUR; a game session in USD cannot play its free spins`,
      });
  });

  it('a Regular Bonus Call has no free spins to start', () => {
    spec
      .given([regularRegistered()])
      .when(start(1))
      .thenFails({
        code: 'BONUS_NOT_ACTIVE',
        message: `bonus call ${ISSUE} is a Regular Bonus Call: it has no free spins`,
      });
  });

  it('a settle names the round that has no free spin in progress', () => {
    spec
      .given([registered(), started(1, 1)])
      .when(settle(2, 10))
      .thenFails({
        code: 'FREE_SPIN_NOT_STARTED',
        message: `no free spin of bonus call ${ISSUE} is in progress for round 2`,
      });
  });

  it('a settle names the bonus call it does not know, and refuses a raw win that is not whole minor units', () => {
    spec
      .given([])
      .when(settle(1, 10))
      .thenFails({ code: 'BONUS_NOT_FOUND', message: `no bonus call ${ISSUE} for this player` });
    spec
      .given([registered(), started(1, 1)])
      .when(settle(1, 0.5))
      .thenFails({
        code: 'VALIDATION_FAILED',
        message: 'the raw win must be a non-negative whole amount of minor units',
      });
  });

  it('an expiry names the bonus call it does not know', () => {
    spec
      .given([])
      .when({ type: 'ExpireBonusCall', data: { issueId: ISSUE }, metadata: { now: EXPIRE_AT } })
      .thenFails({ code: 'BONUS_NOT_FOUND', message: `no bonus call ${ISSUE} for this player` });
  });

  it('a cancel names the bonus call it does not know, and the one that is over', () => {
    const cancel = (now = at(1_000)) => ({
      type: 'CancelBonusCall' as const,
      data: { issueId: ISSUE },
      metadata: { now },
    });
    const completed: PlayerBonusEvent = {
      type: 'BonusCallCompleted',
      data: { issueId: ISSUE, reason: 'spins_used', totalWinMinor: 0, completedAt: at(2_000) },
    };
    spec
      .given([])
      .when(cancel())
      .thenFails({ code: 'BONUS_NOT_FOUND', message: `no bonus call ${ISSUE} for this player` });
    spec
      .given([registered(), completed])
      .when(cancel())
      .thenFails({
        code: 'BONUS_ALREADY_COMPLETED',
        message: `bonus call ${ISSUE} is completed (fully delivered) and cannot be canceled`,
      });
    spec
      .given([registered(), expired])
      .when(cancel())
      .thenFails({ code: 'BONUS_EXPIRED', message: `bonus call ${ISSUE} has expired` });
    // Past expireAt, before the expiry is written: the message says when it expired.
    spec
      .given([registered()])
      .when(cancel(EXPIRE_AT))
      .thenFails({ code: 'BONUS_EXPIRED', message: `bonus call ${ISSUE} expired at ${EXPIRE_AT}` });
  });

  it('a steered spin names the bonus call, its game, currency or amount it refuses', () => {
    spec
      .given([])
      .when(steer({}))
      .thenFails({ code: 'BONUS_NOT_FOUND', message: `no bonus call ${ISSUE} for this player` });
    spec
      .given([registered()])
      .when(steer({}))
      .thenFails({
        code: 'BONUS_NOT_ACTIVE',
        message: `bonus call ${ISSUE} is a Free Spin Bonus: it steers no paid spin`,
      });
    spec
      .given([regularRegistered()])
      .when(steer({ gameId: 103 }))
      .thenFails({ code: 'GAME_NOT_IN_BONUS', message: `game 103 is not one of the games of bonus call ${ISSUE}` });
    spec
      .given([regularRegistered()])
      .when(steer({ currency: 'USD' }))
      .thenFails({ code: 'BONUS_CURRENCY_MISMATCH', message: `bonus call ${ISSUE} is in EUR, not USD` });
    spec
      .given([regularRegistered()])
      .when(steer({ reelWinMinor: 5_001 }))
      .thenFails({ code: 'VALIDATION_FAILED', message: 'spin 1 would deliver 5001; only 5000 is left of the target' });
    spec
      .given([regularRegistered()])
      .when(steer({ reelWinMinor: 100, topUpMinor: 10 }))
      .thenFails({
        code: 'VALIDATION_FAILED',
        message: 'a top-up is paid only by the spin that delivers the rest of the target',
      });
  });

  it.each([
    ['betMinor', { betMinor: 0 }, 1],
    ['betMinor', { betMinor: 100.5 }, 1],
    ['reelWinMinor', { reelWinMinor: -1 }, 0],
    ['reelWinMinor', { reelWinMinor: 12.5 }, 0],
    ['topUpMinor', { topUpMinor: 2 ** 53 }, 0],
    ['topUpMinor', { topUpMinor: Number.NaN }, 0],
  ] as const)('a steered spin refuses %s %o: not a whole amount of at least %i minor units', (name, data, least) => {
    spec
      .given([regularRegistered()])
      .when(steer(data))
      .thenFails({
        code: 'VALIDATION_FAILED',
        message: `${name} must be a whole amount of minor units of at least ${least}`,
      });
  });
});

import { describe, expect, it } from '@jest/globals';
import type { RegularBonusSpinSettled } from '@reelstream/contracts';
import { deciderSpecification } from '@reelstream/testing';
import type { SettleRegularSpin } from '../src/index.js';
import { bonusDecider } from '../src/index.js';
import { at, EXPIRE_AT, ISSUE, registered, regularRegistered } from './fixtures.js';

const spec = deciderSpecification(bonusDecider);
const OUTCOME = { modelId: 'lotus-garden', profile: 'standard', betMinor: 100, draws: [1, 2, 3, 4, 5] };

function steer(
  roundId: number,
  reelWinMinor: number,
  data: Partial<SettleRegularSpin['data']> = {},
  now = at(1_000),
): SettleRegularSpin {
  return {
    type: 'SettleRegularSpin',
    data: {
      issueId: ISSUE,
      roundId,
      gameId: 101,
      betMinor: 100,
      reelWinMinor,
      topUpMinor: 0,
      outcome: OUTCOME,
      ...data,
    },
    metadata: { now },
  };
}

function steered(
  roundId: number,
  spinNumber: number,
  reelWinMinor: number,
  totalWinMinor: number,
  data: Partial<RegularBonusSpinSettled['data']> = {},
): RegularBonusSpinSettled {
  const topUpMinor = data.topUpMinor ?? 0;
  return {
    type: 'RegularBonusSpinSettled',
    data: {
      issueId: ISSUE,
      roundId,
      gameId: 101,
      spinNumber,
      betMinor: 100,
      reelWinMinor,
      topUpMinor,
      winMinor: reelWinMinor + topUpMinor,
      totalWinMinor,
      outcome: OUTCOME,
      settledAt: at(1_000),
      ...data,
    },
  };
}

describe('SettleRegularSpin (ADR 0012)', () => {
  it('records what a steered spin delivers, with the outcome it is settled with', () => {
    spec
      .given([regularRegistered()])
      .when(steer(1, 1_200))
      .then([steered(1, 1, 1_200, 1_200)]);
  });

  it('a game session in the bonus currency steers its spins', () => {
    spec
      .given([regularRegistered()])
      .when(steer(1, 1_200, { currency: 'EUR' }))
      .then([steered(1, 1, 1_200, 1_200)]);
  });

  it('each steered spin counts as used and settled, and adds what it delivered', () => {
    const account = [regularRegistered(), steered(1, 1, 1_200, 1_200), steered(2, 2, 300, 1_500)].reduce(
      bonusDecider.evolve,
      bonusDecider.initialState,
    );
    expect(account.bonuses.get(ISSUE)).toMatchObject({ spinsUsed: 2, spinsSettled: 2, totalWinMinor: 1_500 });
    expect([...(account.bonuses.get(ISSUE)?.steeredRounds.keys() ?? [])]).toEqual([1, 2]);
  });

  it('the spin that delivers the rest of the target completes the bonus call (target_reached)', () => {
    spec
      .given([regularRegistered(), steered(1, 1, 1_200, 1_200)])
      .when(steer(2, 3_800))
      .then([
        steered(2, 2, 3_800, 5_000),
        {
          type: 'BonusCallCompleted',
          data: { issueId: ISSUE, reason: 'target_reached', totalWinMinor: 5_000, completedAt: at(1_000) },
        },
      ]);
  });

  it('a top-up closes the gap only on the spin that delivers the rest', () => {
    spec
      .given([regularRegistered(), steered(1, 1, 4_990, 4_990)])
      .when(steer(2, 0, { topUpMinor: 10 }))
      .then([
        steered(2, 2, 0, 5_000, { topUpMinor: 10 }),
        {
          type: 'BonusCallCompleted',
          data: { issueId: ISSUE, reason: 'target_reached', totalWinMinor: 5_000, completedAt: at(1_000) },
        },
      ]);
    spec
      .given([regularRegistered()])
      .when(steer(1, 100, { topUpMinor: 10 }))
      .thenFails({ code: 'VALIDATION_FAILED' });
  });

  it('never delivers more than what is left of the target', () => {
    spec
      .given([regularRegistered(), steered(1, 1, 4_000, 4_000)])
      .when(steer(2, 1_001))
      .thenFails({ code: 'VALIDATION_FAILED' });
  });

  it('settling the same round again changes nothing, even after completion', () => {
    spec
      .given([regularRegistered(), steered(1, 1, 1_200, 1_200)])
      .when(steer(1, 1_200))
      .thenNothing();
  });

  it('a spin whose bet was taken before the bonus call was canceled is still recorded, without completing it', () => {
    spec
      .given([
        regularRegistered(),
        {
          type: 'BonusCallCanceled',
          data: { issueId: ISSUE, spinsForfeited: 0, totalWinMinor: 0, canceledAt: at(500) },
        },
      ])
      .when(steer(1, 5_000))
      .then([steered(1, 1, 5_000, 5_000)]);
  });

  it('only a Regular Bonus Call steers, only in its games and currency', () => {
    spec.given([registered()]).when(steer(1, 100)).thenFails({ code: 'BONUS_NOT_ACTIVE' });
    spec
      .given([regularRegistered()])
      .when(steer(1, 100, { gameId: 103 }))
      .thenFails({ code: 'GAME_NOT_IN_BONUS' });
    spec
      .given([regularRegistered()])
      .when(steer(1, 100, { currency: 'USD' }))
      .thenFails({ code: 'BONUS_CURRENCY_MISMATCH' });
    spec.given([]).when(steer(1, 100)).thenFails({ code: 'BONUS_NOT_FOUND' });
  });

  it('expiry and cancel of a Regular Bonus Call forfeit no spins and keep what was delivered', () => {
    spec
      .given([regularRegistered(), steered(1, 1, 1_200, 1_200)])
      .when({ type: 'ExpireBonusCall', data: { issueId: ISSUE }, metadata: { now: EXPIRE_AT } })
      .then([
        {
          type: 'BonusCallExpired',
          data: { issueId: ISSUE, spinsForfeited: 0, totalWinMinor: 1_200, expiredAt: EXPIRE_AT },
        },
      ]);
    spec
      .given([
        regularRegistered(),
        steered(1, 1, 1_200, 1_200),
        steered(2, 2, 3_800, 5_000),
        {
          type: 'BonusCallCompleted',
          data: { issueId: ISSUE, reason: 'target_reached', totalWinMinor: 5_000, completedAt: at(1_000) },
        },
      ])
      .when({ type: 'CancelBonusCall', data: { issueId: ISSUE }, metadata: { now: at(2_000) } })
      .thenFails({ code: 'BONUS_ALREADY_COMPLETED' });
  });
});

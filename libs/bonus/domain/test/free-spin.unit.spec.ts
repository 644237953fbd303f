import { describe, expect, it } from '@jest/globals';
import type { PlayerBonusEvent } from '@reelstream/contracts';
import { deciderSpecification } from '@reelstream/testing';
import { bonusDecider } from '../src/index.js';
import {
  at,
  EXPIRE_AT,
  ISSUE,
  playedSpins,
  registered,
  regularRegistered,
  settle,
  settled,
  start,
  started,
} from './fixtures.js';

const spec = deciderSpecification(bonusDecider);
const completedAt = at(2_000);

describe('StartFreeSpin', () => {
  it('starts the next spin of an active bonus in one of its games, with its bet and the win cap left', () => {
    spec
      .given([registered()])
      .when(start(1))
      .then([started(1, 1)]);
    spec
      .given([registered(), started(1, 1), settled(1, 1, { rawWinMinor: 300, winMinor: 300, totalWinMinor: 300 })])
      .when(start(2, { gameId: 102 }))
      .then([started(2, 2, { gameId: 102, winCapLeftMinor: 4_700 })]);
  });

  it('a free spin only in one of its games: otherwise GAME_NOT_IN_BONUS', () => {
    spec
      .given([registered()])
      .when(start(1, { gameId: 103 }))
      .thenFails({ code: 'GAME_NOT_IN_BONUS' });
  });

  it('one spin at a time: another round while one is open is FREE_SPIN_IN_PROGRESS', () => {
    spec
      .given([registered(), started(1, 1)])
      .when(start(2))
      .thenFails({ code: 'FREE_SPIN_IN_PROGRESS' });
  });

  it('a retried start of the same round changes nothing (even after the bonus ended)', () => {
    spec
      .given([registered(), started(1, 1)])
      .when(start(1))
      .thenNothing();
    spec
      .given([registered(), started(1, 1), settled(1, 1)])
      .when(start(1))
      .thenNothing();
  });

  it('a free spin only in a session of the bonus currency: another is BONUS_CURRENCY_MISMATCH and starts nothing (D6 amended)', () => {
    spec
      .given([registered()])
      .when(start(1, { currency: 'KRW' }))
      .thenFails({ code: 'BONUS_CURRENCY_MISMATCH' });
    spec
      .given([registered()])
      .when(start(1, { currency: 'EUR' }))
      .then([started(1, 1)]);
  });

  it('a free spin only on an active bonus: unknown is BONUS_NOT_FOUND, expired BONUS_EXPIRED, canceled BONUS_NOT_ACTIVE', () => {
    spec.given([]).when(start(1)).thenFails({ code: 'BONUS_NOT_FOUND' });
    spec
      .given([
        registered(),
        {
          type: 'BonusCallExpired',
          data: { issueId: ISSUE, spinsForfeited: 10, totalWinMinor: 0, expiredAt: EXPIRE_AT },
        },
      ])
      .when(start(1))
      .thenFails({ code: 'BONUS_EXPIRED' });
    spec
      .given([
        registered(),
        {
          type: 'BonusCallCanceled',
          data: { issueId: ISSUE, spinsForfeited: 10, totalWinMinor: 0, canceledAt: at(500) },
        },
      ])
      .when(start(1))
      .thenFails({ code: 'BONUS_NOT_ACTIVE' });
  });

  it('no spin starts at or after expireAt, even before the expiry is recorded: BONUS_EXPIRED', () => {
    spec
      .given([registered()])
      .when(start(1, {}, EXPIRE_AT))
      .thenFails({ code: 'BONUS_EXPIRED' });
  });

  it('D20: once completed, no game of the bonus starts another spin', () => {
    const completed = [
      registered({ spinAmount: 1 }),
      started(1, 1),
      settled(1, 1, { spinsLeft: 0 }),
      {
        type: 'BonusCallCompleted' as const,
        data: { issueId: ISSUE, reason: 'spins_used' as const, totalWinMinor: 0, completedAt },
      },
    ];
    spec
      .given(completed)
      .when(start(2, { gameId: 101 }))
      .thenFails({ code: 'BONUS_NOT_ACTIVE' });
    spec
      .given(completed)
      .when(start(2, { gameId: 102 }))
      .thenFails({ code: 'BONUS_NOT_ACTIVE' });
  });

  it('a free spin only while spins remain: the last spin completes the bonus, and no spin starts after it', () => {
    const lastSpun = [registered({ spinAmount: 2 }), started(1, 1), settled(1, 1, { spinsLeft: 1 }), started(2, 2)];
    const decided = spec.given(lastSpun).when(settle(2, 0)).decision;
    expect(decided).toEqual([
      settled(2, 2, { spinsLeft: 0 }),
      { type: 'BonusCallCompleted', data: { issueId: ISSUE, reason: 'spins_used', totalWinMinor: 0, completedAt } },
    ]);
    spec
      .given([...lastSpun, ...(decided as PlayerBonusEvent[])])
      .when(start(3))
      .thenFails({ code: 'BONUS_NOT_ACTIVE' });
  });

  it('a Regular Bonus Call has no free spins', () => {
    spec.given([regularRegistered()]).when(start(1)).thenFails({ code: 'BONUS_NOT_ACTIVE' });
  });

  it('a Regular Bonus Call has no free spins even when its registration carries spin fields (ignored for bonusType 2)', () => {
    spec
      .given([regularRegistered({ spinAmount: 10, baseBetAmountMinor: 20 })])
      .when(start(1))
      .thenFails({
        code: 'BONUS_NOT_ACTIVE',
        message: `bonus call ${ISSUE} is a Regular Bonus Call: it has no free spins`,
      });
  });

  it('no spin starts once all spins are used, even on a stream that recorded no completion', () => {
    spec
      .given([registered({ spinAmount: 1 }), started(1, 1), settled(1, 1, { spinsLeft: 0 })])
      .when(start(2))
      .thenFails({ code: 'BONUS_NOT_ACTIVE', message: `bonus call ${ISSUE} has no free spins left` });
  });
});

describe('SettleFreeSpin', () => {
  it('credits a win below the cap in full, with the transactionId of its win callback', () => {
    spec
      .given([registered(), started(1, 1)])
      .when(settle(1, 450))
      .then([
        settled(1, 1, { rawWinMinor: 450, winMinor: 450, totalWinMinor: 450, spinsLeft: 9, transactionId: 70_001 }),
      ]);
  });

  it('a spin without a win is settled too (its win callback carries 0, D10)', () => {
    spec
      .given([registered(), started(1, 1)])
      .when(settle(1, 0))
      .then([settled(1, 1)]);
  });

  it('each win is capped by the win cap left (callAmount − wins so far) and reaching the cap completes the bonus', () => {
    spec
      .given([
        registered(),
        started(1, 1),
        settled(1, 1, { rawWinMinor: 4_000, winMinor: 4_000, totalWinMinor: 4_000 }),
        started(2, 2, { winCapLeftMinor: 1_000 }),
      ])
      .when(settle(2, 2_500))
      .then([
        settled(2, 2, { rawWinMinor: 2_500, winMinor: 1_000, totalWinMinor: 5_000, spinsLeft: 8 }),
        {
          type: 'BonusCallCompleted',
          data: { issueId: ISSUE, reason: 'win_cap_reached', totalWinMinor: 5_000, completedAt },
        },
      ]);
  });

  it('completed when the spins run out', () => {
    spec
      .given([
        registered({ spinAmount: 3 }),
        ...playedSpins(2).map((event) =>
          event.type === 'FreeSpinSettled'
            ? { ...event, data: { ...event.data, spinsLeft: 3 - event.data.spinNumber } }
            : event,
        ),
        started(3, 3),
      ])
      .when(settle(3, 120))
      .then([
        settled(3, 3, { rawWinMinor: 120, winMinor: 120, totalWinMinor: 120, spinsLeft: 0 }),
        { type: 'BonusCallCompleted', data: { issueId: ISSUE, reason: 'spins_used', totalWinMinor: 120, completedAt } },
      ]);
  });

  it('a retried settle of the same round changes nothing: the first win and transactionId stand', () => {
    spec
      .given([registered(), started(1, 1), settled(1, 1, { rawWinMinor: 10, winMinor: 10, totalWinMinor: 10 })])
      .when(settle(1, 999, { transactionId: 123 }))
      .thenNothing();
  });

  it('a settle without its start is FREE_SPIN_NOT_STARTED', () => {
    spec.given([registered()]).when(settle(1, 10)).thenFails({ code: 'FREE_SPIN_NOT_STARTED' });
    spec
      .given([registered(), started(1, 1)])
      .when(settle(2, 10))
      .thenFails({ code: 'FREE_SPIN_NOT_STARTED' });
  });

  it('only the open round settles: a round started before it and never settled is not in progress', () => {
    const superseded = [registered(), started(1, 1), started(2, 2)];
    spec
      .given(superseded)
      .when(settle(1, 10))
      .thenFails({
        code: 'FREE_SPIN_NOT_STARTED',
        message: `no free spin of bonus call ${ISSUE} is in progress for round 1`,
      });
    spec
      .given([
        ...superseded,
        {
          type: 'BonusCallCanceled',
          data: { issueId: ISSUE, spinsForfeited: 8, totalWinMinor: 0, canceledAt: at(1_500) },
        },
      ])
      .when(settle(1, 10))
      .thenFails({ code: 'BONUS_NOT_ACTIVE', message: `bonus call ${ISSUE} is canceled` });
  });

  it('a settled round that is not the open one leaves the open round open', () => {
    const account = [registered(), started(1, 1), started(2, 2), settled(1, 1)].reduce(
      bonusDecider.evolve,
      bonusDecider.initialState,
    );
    expect(account.bonuses.get(ISSUE)).toMatchObject({ openRoundId: 2, spinsSettled: 1 });
    expect(account.bonuses.get(ISSUE)?.rounds.get(1)?.settled).toMatchObject({ rawWinMinor: 0 });
  });

  it('a spin started before expireAt is still credited while the bonus is active in the log', () => {
    spec
      .given([registered(), started(1, 1)])
      .when(settle(1, 75, {}, EXPIRE_AT))
      .then([settled(1, 1, { rawWinMinor: 75, winMinor: 75, totalWinMinor: 75, settledAt: EXPIRE_AT })]);
  });

  describe('a spin in flight when the bonus call ends (spins already used keep their wins)', () => {
    const afterExpiry = '2026-05-08T10:00:01.000Z';
    const expiredWithOpenSpin: PlayerBonusEvent[] = [
      registered(),
      started(1, 1),
      { type: 'BonusCallExpired', data: { issueId: ISSUE, spinsForfeited: 9, totalWinMinor: 0, expiredAt: EXPIRE_AT } },
    ];
    const canceledWithOpenSpin: PlayerBonusEvent[] = [
      registered(),
      started(1, 1),
      {
        type: 'BonusCallCanceled',
        data: { issueId: ISSUE, spinsForfeited: 9, totalWinMinor: 0, canceledAt: at(1_500) },
      },
    ];

    it('settles after expiry with its win, no spins left, and no completion', () => {
      spec
        .given(expiredWithOpenSpin)
        .when(settle(1, 75, {}, afterExpiry))
        .then([
          settled(1, 1, { rawWinMinor: 75, winMinor: 75, totalWinMinor: 75, spinsLeft: 0, settledAt: afterExpiry }),
        ]);
    });

    it('settles after cancel with its win, capped by the win cap left, and no completion even when the cap is reached', () => {
      spec
        .given(canceledWithOpenSpin)
        .when(settle(1, 75))
        .then([settled(1, 1, { rawWinMinor: 75, winMinor: 75, totalWinMinor: 75, spinsLeft: 0 })]);
      spec
        .given(canceledWithOpenSpin)
        .when(settle(1, 9_000))
        .then([settled(1, 1, { rawWinMinor: 9_000, winMinor: 5_000, totalWinMinor: 5_000, spinsLeft: 0 })]);
    });

    it('counts as used and credited in the ended bonus, which stays ended; a retry changes nothing', () => {
      const given = [
        ...canceledWithOpenSpin,
        settled(1, 1, { rawWinMinor: 75, winMinor: 75, totalWinMinor: 75, spinsLeft: 0 }),
      ];
      const account = given.reduce(bonusDecider.evolve, bonusDecider.initialState);
      expect(account.bonuses.get(ISSUE)).toMatchObject({
        status: 'canceled',
        spinsUsed: 1,
        spinsSettled: 1,
        totalWinMinor: 75,
        openRoundId: null,
      });
      expect(account.activeIssueId).toBeNull();
      spec.given(given).when(settle(1, 75)).thenNothing();
    });

    it('only the spin that was open: another round of the ended bonus, or a new spin, is refused', () => {
      spec
        .given(expiredWithOpenSpin)
        .when(settle(2, 75, {}, afterExpiry))
        .thenFails({ code: 'BONUS_EXPIRED' });
      spec.given(canceledWithOpenSpin).when(settle(2, 75)).thenFails({ code: 'BONUS_NOT_ACTIVE' });
      spec.given(canceledWithOpenSpin).when(start(2)).thenFails({ code: 'BONUS_NOT_ACTIVE' });
    });
  });

  it('a negative or fractional raw win is refused', () => {
    spec
      .given([registered(), started(1, 1)])
      .when(settle(1, -1))
      .thenFails({ code: 'VALIDATION_FAILED' });
    spec
      .given([registered(), started(1, 1)])
      .when(settle(1, 1.5))
      .thenFails({ code: 'VALIDATION_FAILED' });
  });
});

import { describe, expect, it } from '@jest/globals';
import type { PlayerBonusEvent } from '@reelstream/contracts';
import { deciderSpecification } from '@reelstream/testing';
import {
  bonusDecider,
  type BonusCall,
  type BonusDomainCommand,
  type CancelBonusCall,
  type ExpireBonusCall,
  type PlayerBonusAccount,
} from '../src/index.js';
import {
  at,
  EXPIRE_AT,
  ISSUE,
  playedSpins,
  register,
  registered,
  regularRegistered,
  settle,
  settled,
  start,
  started,
} from './fixtures.js';

const spec = deciderSpecification(bonusDecider);

const expire = (now = EXPIRE_AT, issueId = ISSUE): ExpireBonusCall => ({
  type: 'ExpireBonusCall',
  data: { issueId },
  metadata: { now },
});
const cancel = (now = at(3_000), issueId = ISSUE): CancelBonusCall => ({
  type: 'CancelBonusCall',
  data: { issueId },
  metadata: { now },
});

const winning: PlayerBonusEvent[] = [
  registered(),
  started(1, 1),
  settled(1, 1, { rawWinMinor: 250, winMinor: 250, totalWinMinor: 250, spinsLeft: 9 }),
];
const completed: PlayerBonusEvent[] = [
  registered({ spinAmount: 1 }),
  started(1, 1),
  settled(1, 1, { spinsLeft: 0 }),
  {
    type: 'BonusCallCompleted',
    data: { issueId: ISSUE, reason: 'spins_used', totalWinMinor: 0, completedAt: at(2_000) },
  },
];
const expired: PlayerBonusEvent[] = [
  registered(),
  { type: 'BonusCallExpired', data: { issueId: ISSUE, spinsForfeited: 10, totalWinMinor: 0, expiredAt: EXPIRE_AT } },
];
const canceled: PlayerBonusEvent[] = [
  registered(),
  { type: 'BonusCallCanceled', data: { issueId: ISSUE, spinsForfeited: 10, totalWinMinor: 0, canceledAt: at(500) } },
];

describe('spec §3 transition table, row by row', () => {
  it('active Free Spin Bonus, expiration reached, spins unused → expired; unused spins forfeited, wins kept', () => {
    spec
      .given(winning)
      .when(expire())
      .then([
        {
          type: 'BonusCallExpired',
          data: { issueId: ISSUE, spinsForfeited: 9, totalWinMinor: 250, expiredAt: EXPIRE_AT },
        },
      ]);
  });

  it('active Regular Bonus Call, full target delivered → completed (recorded with reason target_reached; cancel then refused)', () => {
    // No command plays a Regular Bonus Call yet (bonusType 2 is "currently inactive", spec §1);
    // the transition is the BonusCallCompleted event, and the account treats it as final.
    const delivered: PlayerBonusEvent[] = [
      regularRegistered(),
      {
        type: 'BonusCallCompleted',
        data: { issueId: ISSUE, reason: 'target_reached', totalWinMinor: 5_000, completedAt: at(4_000) },
      },
    ];
    spec.given(delivered).when(cancel()).thenFails({ code: 'BONUS_ALREADY_COMPLETED' });
    spec.given(delivered).when(expire()).thenNothing();
  });

  it('active Regular Bonus Call, expiration reached, target not met → expired', () => {
    spec
      .given([regularRegistered()])
      .when(expire())
      .then([
        {
          type: 'BonusCallExpired',
          data: { issueId: ISSUE, spinsForfeited: 0, totalWinMinor: 0, expiredAt: EXPIRE_AT },
        },
      ]);
  });

  it('active, POST cancel, not yet completed → canceled (also the manual way out of a Regular Bonus Call)', () => {
    spec
      .given(winning)
      .when(cancel())
      .then([
        {
          type: 'BonusCallCanceled',
          data: { issueId: ISSUE, spinsForfeited: 9, totalWinMinor: 250, canceledAt: at(3_000) },
        },
      ]);
    spec
      .given([regularRegistered()])
      .when(cancel())
      .then([
        {
          type: 'BonusCallCanceled',
          data: { issueId: ISSUE, spinsForfeited: 0, totalWinMinor: 0, canceledAt: at(3_000) },
        },
      ]);
  });

  it('completed, POST cancel → stays completed: refused with BONUS_ALREADY_COMPLETED (409)', () => {
    spec.given(completed).when(cancel()).thenFails({ code: 'BONUS_ALREADY_COMPLETED' });
  });
});

describe('ExpireBonusCall', () => {
  it('expires at expireAt exactly, and later (a restart across expireAt), with the time of the command', () => {
    spec
      .given([registered()])
      .when(expire(EXPIRE_AT))
      .then([
        {
          type: 'BonusCallExpired',
          data: { issueId: ISSUE, spinsForfeited: 10, totalWinMinor: 0, expiredAt: EXPIRE_AT },
        },
      ]);
    const later = '2026-05-08T10:05:00.000Z';
    spec
      .given([registered()])
      .when(expire(later))
      .then([
        { type: 'BonusCallExpired', data: { issueId: ISSUE, spinsForfeited: 10, totalWinMinor: 0, expiredAt: later } },
      ]);
  });

  it('the spin open at expiry is used, not forfeited: only the spins not started are (it settles later)', () => {
    spec
      .given([registered(), ...playedSpins(3), started(4, 4)])
      .when(expire())
      .then([
        {
          type: 'BonusCallExpired',
          data: { issueId: ISSUE, spinsForfeited: 6, totalWinMinor: 0, expiredAt: EXPIRE_AT },
        },
      ]);
    spec
      .given([registered(), ...playedSpins(3), started(4, 4)])
      .when(cancel())
      .then([
        {
          type: 'BonusCallCanceled',
          data: { issueId: ISSUE, spinsForfeited: 6, totalWinMinor: 0, canceledAt: at(3_000) },
        },
      ]);
  });

  it('before expireAt (a timer that fired early) nothing happens', () => {
    spec.given([registered()]).when(expire('2026-05-08T09:59:59.999Z')).thenNothing();
  });

  it('a terminal state never changes: expiring a completed, canceled or expired bonus does nothing', () => {
    for (const given of [completed, canceled, expired])
      spec.given(given).when(expire('2026-06-01T00:00:00.000Z')).thenNothing();
  });

  it('an unknown issueId is BONUS_NOT_FOUND', () => {
    spec
      .given([registered()])
      .when(expire(EXPIRE_AT, ISSUE + 7))
      .thenFails({ code: 'BONUS_NOT_FOUND' });
  });
});

describe('CancelBonusCall (D14)', () => {
  it('cancel of a canceled bonus call is idempotent: nothing more is recorded', () => {
    spec.given(canceled).when(cancel()).thenNothing();
  });

  it('cancel of an expired bonus call is BONUS_EXPIRED, also past expireAt before the expiry is recorded', () => {
    spec.given(expired).when(cancel()).thenFails({ code: 'BONUS_EXPIRED' });
    spec.given([registered()]).when(cancel(EXPIRE_AT)).thenFails({ code: 'BONUS_EXPIRED' });
  });

  it('cancel of an unknown bonus call is BONUS_NOT_FOUND', () => {
    spec.given([]).when(cancel()).thenFails({ code: 'BONUS_NOT_FOUND' });
  });

  it('a canceled bonus frees the player for the next registration and refuses further spins', () => {
    spec.given(canceled).when(start(9)).thenFails({ code: 'BONUS_NOT_ACTIVE' });
    spec.given(canceled).when(settle(9, 10)).thenFails({ code: 'BONUS_NOT_ACTIVE' });
    spec
      .given(canceled)
      .when(register({ issueId: ISSUE + 1, platformId: 'promo-2' }))
      .then([registered({ issueId: ISSUE + 1, platformId: 'promo-2' })]);
  });
});

describe('the fold of a playerBonus stream', () => {
  const fold = (events: PlayerBonusEvent[]) => events.reduce(bonusDecider.evolve, bonusDecider.initialState);

  it('the end of a bonus call that is not the active one leaves the active one active', () => {
    const next = ISSUE + 1;
    const account = fold([
      registered(),
      registered({ issueId: next, platformId: 'promo-2' }),
      {
        type: 'BonusCallCanceled',
        data: { issueId: ISSUE, spinsForfeited: 10, totalWinMinor: 0, canceledAt: at(500) },
      },
    ]);
    expect(account.activeIssueId).toBe(next);
    expect(account.bonuses.get(ISSUE)?.status).toBe('canceled');
  });

  it('stops at an event of a bonus call the stream never registered', () => {
    expect(() => fold([registered(), started(1, 1, { issueId: ISSUE + 1 })])).toThrow(
      `event for bonus call ${ISSUE + 1}, which this stream never registered`,
    );
  });

  it('stops at an event type it has no rule for (a stream written by a newer version)', () => {
    const unknown = { type: 'BonusCallPaused', data: { issueId: ISSUE } } as unknown as PlayerBonusEvent;
    expect(() => fold([registered(), unknown])).toThrow('no evolve rule for BonusCallPaused');
  });
});

describe('the bonus decider on what it does not know', () => {
  it('throws for a command type it has no rule for', () => {
    const unknown = { type: 'PauseBonusCall', data: { issueId: ISSUE }, metadata: { now: at(0) } };
    expect(() => bonusDecider.decide(unknown as unknown as BonusDomainCommand, bonusDecider.initialState)).toThrow(
      'no rule for command PauseBonusCall',
    );
  });

  it('a cancel throws for a bonus status it does not know', () => {
    const account = [registered()].reduce(bonusDecider.evolve, bonusDecider.initialState);
    const paused = { ...account.bonuses.get(ISSUE), status: 'paused' } as unknown as BonusCall;
    const state: PlayerBonusAccount = { ...account, bonuses: new Map([[ISSUE, paused]]) };
    expect(() => bonusDecider.decide(cancel(), state)).toThrow('unknown bonus status paused');
  });
});

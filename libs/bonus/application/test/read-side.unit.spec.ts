import { describe, expect, it } from '@jest/globals';
import type { BonusCallRegistered, PlayerBonusEvent } from '@reelstream/contracts';
import { decodeListCursor, encodeListCursor, ProjectionOrderError, projectBonusCall } from '../src/index.js';

const at = '2026-05-01T10:00:00.000Z';
const registered: BonusCallRegistered = {
  type: 'BonusCallRegistered',
  data: {
    issueId: 5,
    platformId: 'p-5',
    operatorId: 'demo',
    playerId: 'player_1',
    providerId: 1,
    gameIds: [101],
    bonusType: 1,
    currency: 'EUR',
    callAmountMinor: 1_000,
    spinAmount: 4,
    baseBetAmountMinor: 20,
    expireAt: '2026-05-02T00:00:00.000Z',
    registeredAt: at,
  },
};
/** Spin 1 of that call, round 9, with its whole cap of 10.00 left. */
const spinStarted: PlayerBonusEvent = {
  type: 'FreeSpinStarted',
  data: {
    issueId: 5,
    roundId: 9,
    gameId: 101,
    spinNumber: 1,
    baseBetAmountMinor: 20,
    winCapLeftMinor: 1_000,
    startedAt: at,
  },
};

describe('projectBonusCall: the status record of spec §2.1 plus progress (D12)', () => {
  it('follows a bonus call from registration through spins to completion, with the time of each transition', () => {
    const events: PlayerBonusEvent[] = [registered, spinStarted];
    const open = events.reduce(projectBonusCall, undefined as never);
    expect(open).toMatchObject({ spinsUsed: 1, spinsLeft: 3, openRoundId: 9, status: 'active', createdAt: at });
    const settled = projectBonusCall(open, {
      type: 'FreeSpinSettled',
      data: {
        issueId: 5,
        roundId: 9,
        gameId: 101,
        spinNumber: 1,
        rawWinMinor: 2_000,
        winMinor: 1_000,
        totalWinMinor: 1_000,
        spinsLeft: 3,
        settledAt: at,
        transactionId: 31,
      },
    });
    expect(settled).toMatchObject({ totalWinMinor: 1_000, winCapLeftMinor: 0, openRoundId: null });
    const completed = projectBonusCall(settled, {
      type: 'BonusCallCompleted',
      data: { issueId: 5, reason: 'win_cap_reached', totalWinMinor: 1_000, completedAt: '2026-05-01T10:00:01.000Z' },
    });
    expect(completed).toMatchObject({ status: 'completed', completedAt: '2026-05-01T10:00:01.000Z' });
    expect(completed).not.toHaveProperty('canceledAt');
  });

  it('records expiredAt and canceledAt; the spin in flight stays open until it settles, and its win counts', () => {
    const open = projectBonusCall(projectBonusCall(undefined, registered), spinStarted);
    expect(
      projectBonusCall(open, {
        type: 'BonusCallExpired',
        data: { issueId: 5, spinsForfeited: 4, totalWinMinor: 0, expiredAt: at },
      }),
    ).toMatchObject({ status: 'expired', expiredAt: at, openRoundId: 9 });
    const canceled = projectBonusCall(open, {
      type: 'BonusCallCanceled',
      data: { issueId: 5, spinsForfeited: 4, totalWinMinor: 0, canceledAt: at },
    });
    expect(canceled).toMatchObject({ status: 'canceled', canceledAt: at, openRoundId: 9 });
    const late = {
      type: 'FreeSpinSettled' as const,
      data: {
        issueId: 5,
        roundId: 9,
        gameId: 101,
        spinNumber: 1,
        rawWinMinor: 30,
        winMinor: 30,
        totalWinMinor: 30,
        spinsLeft: 0,
        settledAt: at,
        transactionId: 77,
      },
    };
    expect(projectBonusCall(canceled, late)).toMatchObject({
      status: 'canceled',
      openRoundId: null,
      totalWinMinor: 30,
      winCapLeftMinor: 970,
    });
  });

  it('refuses an event for a bonus call it has not seen registered', () => {
    expect(() =>
      projectBonusCall(undefined, {
        type: 'BonusCallCanceled',
        data: { issueId: 5, spinsForfeited: 4, totalWinMinor: 0, canceledAt: at },
      }),
    ).toThrow(ProjectionOrderError);
  });
});

describe('list cursors', () => {
  it('round-trip an issueId and refuse anything else', () => {
    const cursor = encodeListCursor(171234567890123);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeListCursor(cursor)).toBe(171234567890123);
    for (const bad of [
      '',
      'abc',
      encodeListCursor(0),
      Buffer.from('12a').toString('base64url'),
      Buffer.from('0012').toString('base64url'),
      'x'.repeat(40),
    ])
      expect(decodeListCursor(bad)).toBeUndefined();
  });
});

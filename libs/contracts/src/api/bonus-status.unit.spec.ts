import { describe, expect, it } from '@jest/globals';
import { sampleBonusCall } from '@reelstream/testing';
import type { BonusCallRecord } from '../commands/bonus-record.js';
import { bonusCallStatus, listBonusCallsQueryParams, toBonusCallStatus } from './bonus-status.js';

const record: BonusCallRecord = {
  issueId: 171234567890123,
  ...sampleBonusCall({ expireAt: '2026-06-30T23:59:59.000Z' }),
  spinsUsed: 10,
  spinsLeft: 0,
  totalWinMinor: 1230,
  winCapLeftMinor: 3770,
  openRoundId: null,
  status: 'completed',
  createdAt: '2026-05-01T09:30:00.000Z',
  completedAt: '2026-05-01T09:45:00.000Z',
};

describe('bonus call status: amounts in currency units, D12 state names (decisions.md D12, D13)', () => {
  it('converts minor units of the record’s currency and keeps only the times that happened', () => {
    const status = toBonusCallStatus(record);
    expect(status).toEqual({
      issueId: 171234567890123,
      platformId: 'promo-0001',
      playerId: 'player_42',
      providerId: 7,
      gameIds: [1001, 1002],
      bonusType: 1,
      currency: 'EUR',
      callAmount: 50,
      spinAmount: 10,
      baseBetAmount: 0.2,
      spinsUsed: 10,
      spinsLeft: 0,
      totalWin: 12.3,
      winCapLeft: 37.7,
      status: 'completed',
      expireAt: '2026-06-30T23:59:59.000Z',
      createdAt: '2026-05-01T09:30:00.000Z',
      completedAt: '2026-05-01T09:45:00.000Z',
    });
    expect(bonusCallStatus.parse(status)).toEqual(status);
    expect(status).not.toHaveProperty('operatorId');
  });

  it('uses the exponent of the currency (KRW has none, KWD three)', () => {
    expect(toBonusCallStatus({ ...record, currency: 'KRW', callAmountMinor: 50000 }).callAmount).toBe(50000);
    expect(toBonusCallStatus({ ...record, currency: 'KWD', callAmountMinor: 50125 }).callAmount).toBe(50.125);
  });

  it('shows a Regular Bonus Call with null spin fields', () => {
    const regular = toBonusCallStatus({
      ...record,
      bonusType: 2,
      spinAmount: null,
      baseBetAmountMinor: null,
      spinsLeft: null,
      status: 'active',
      completedAt: undefined,
    } as BonusCallRecord);
    expect(regular).toMatchObject({ bonusType: 2, spinAmount: null, baseBetAmount: null, spinsLeft: null });
    expect(bonusCallStatus.safeParse(regular).success).toBe(true);
  });

  it('refuses a state name outside D12 and a non-UTC time', () => {
    const status = toBonusCallStatus(record);
    expect(bonusCallStatus.safeParse({ ...status, status: 'cancelled' }).success).toBe(false);
    expect(bonusCallStatus.safeParse({ ...status, createdAt: '2026-05-01 09:30:00' }).success).toBe(false);
    expect(bonusCallStatus.safeParse({ ...status, createdAt: '2026-05-01T18:30:00+09:00' }).success).toBe(false);
  });
});

describe('list query: optional filters, limit 1–100 default 50, opaque cursor (decisions.md D13)', () => {
  it('defaults limit to 50 with no parameter at all', () =>
    expect(listBonusCallsQueryParams.parse({})).toEqual({ limit: 50 }));
  it('parses filters and a limit given as query text', () => {
    expect(
      listBonusCallsQueryParams.parse({
        playerId: 'player_42',
        platformId: 'promo-1',
        status: 'active',
        limit: '100',
        cursor: 'abc_-9',
      }),
    ).toEqual({
      playerId: 'player_42',
      platformId: 'promo-1',
      status: 'active',
      limit: 100,
      cursor: 'abc_-9',
    });
    expect(listBonusCallsQueryParams.parse({ limit: '1' }).limit).toBe(1);
  });
  it.each(['0', '101', '-1', '5.5', 'ten', ''])('refuses limit %j', (limit) =>
    expect(listBonusCallsQueryParams.safeParse({ limit }).success).toBe(false),
  );
  it.each(['cancelled', 'ACTIVE', 'pending'])('refuses status %j', (status) =>
    expect(listBonusCallsQueryParams.safeParse({ status }).success).toBe(false),
  );
  it('refuses a bad playerId, a repeated parameter, a cursor with other characters, and unknown parameters', () => {
    expect(listBonusCallsQueryParams.safeParse({ playerId: 'a-b' }).success).toBe(false);
    expect(listBonusCallsQueryParams.safeParse({ status: ['active', 'expired'] }).success).toBe(false);
    expect(listBonusCallsQueryParams.safeParse({ cursor: 'a b' }).success).toBe(false);
    expect(listBonusCallsQueryParams.safeParse({ player: 'p1' }).success).toBe(false);
  });
});

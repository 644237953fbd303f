import type { BonusCallRecord } from '@reelstream/contracts';

/** A read-model record as the ledger answers queries with it. */
export function bonusRecord(overrides: Partial<BonusCallRecord> = {}): BonusCallRecord {
  return {
    issueId: 4_503_599_627_370_497,
    platformId: 'promo-1',
    operatorId: 'casino-a',
    playerId: 'player_1',
    providerId: 1,
    gameIds: [101, 102],
    bonusType: 1,
    currency: 'EUR',
    callAmountMinor: 5_000,
    spinAmount: 10,
    baseBetAmountMinor: 20,
    spinsUsed: 3,
    spinsLeft: 7,
    totalWinMinor: 160,
    winCapLeftMinor: 4_840,
    openRoundId: null,
    status: 'active',
    expireAt: '2026-06-30T23:59:59.000Z',
    createdAt: '2026-05-01T00:00:00.000Z',
    ...overrides,
  };
}

/**
 * The bonus call the contract tests describe: the same terms in the command that registers it, the
 * event that records it and the record the ledger answers with, each adding what is its own.
 */
import { BonusTypes } from '@reelstream/contracts';

/** promo-0001: player_42 of operator demo, 10 spins of 0.20 EUR on games 1001 and 1002 of provider 7, up to 50.00 EUR. */
export function sampleBonusCall(change: { gameIds?: number[]; expireAt?: string } = {}) {
  return {
    platformId: 'promo-0001',
    operatorId: 'demo',
    playerId: 'player_42',
    providerId: 7,
    gameIds: [1001, 1002],
    bonusType: BonusTypes.freeSpin,
    currency: 'EUR',
    callAmountMinor: 5000,
    spinAmount: 10,
    baseBetAmountMinor: 20,
    expireAt: '2026-06-30T14:59:59.000Z',
    ...change,
  };
}

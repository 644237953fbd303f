/**
 * The wallet request the contract and wallet tests start from: a bet as the game-server sends it on
 * `wallet.requests`. Shared so that the schemas, the walletTx decider and its repository are
 * tested on the same request, each test changing only what it is about.
 */
import type { WalletBetRequest } from '@reelstream/contracts';

/** Transaction 101: player_42 of operator demo bets 1.50 EUR on round 201 of game 1001. */
export function sampleBetRequest(change: Partial<WalletBetRequest> = {}): WalletBetRequest {
  return {
    command: 'bet',
    transactionId: 101,
    operatorId: 'demo',
    playerId: 'player_42',
    roundId: 201,
    providerId: 7,
    gameId: 1001,
    currency: 'EUR',
    bonusId: 0,
    requestedAt: '2026-05-01T10:00:00.000Z',
    amountMinor: 150,
    isBonusBusy: false,
    ...change,
  };
}

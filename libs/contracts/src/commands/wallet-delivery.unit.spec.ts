import { describe, expect, it } from '@jest/globals';
import { sampleBetRequest } from '@reelstream/testing';
import { walletCancelDelivery, walletRedriveRequest, walletRequestsMessage } from './wallet.js';

describe('wallet.requests also carries re-drives of dead-lettered wins (D11)', () => {
  const redrive = {
    command: 'redrive',
    transactionId: 101,
    operatorId: 'demo',
    playerId: 'player_42',
    requestedAt: '2026-05-01T10:00:00.000Z',
  };

  it('a re-drive names the transaction, its operator and player', () => {
    expect(walletRedriveRequest.parse(redrive)).toEqual(redrive);
    expect(walletRedriveRequest.safeParse({ ...redrive, transactionId: 0 }).success).toBe(false);
    expect(walletRedriveRequest.safeParse({ ...redrive, amountMinor: 5 }).success).toBe(false);
  });

  it('the topic union accepts bet, win, betwin and redrive, and nothing else', () => {
    expect(walletRequestsMessage.parse(redrive).command).toBe('redrive');
    const bet = sampleBetRequest();
    expect(walletRequestsMessage.parse(bet).command).toBe('bet');
    expect(walletRequestsMessage.safeParse({ ...redrive, command: 'cancel' }).success).toBe(false);
  });
});

describe('wallet.cancels: a cancel waiting for the operator’s OK (D9)', () => {
  it('points at the failed transaction and carries the cancel’s own transactionId', () => {
    const delivery = { refTransactionId: 101, cancelTransactionId: 102, operatorId: 'demo', playerId: 'player_42' };
    expect(walletCancelDelivery.parse(delivery)).toEqual(delivery);
    expect(walletCancelDelivery.safeParse({ ...delivery, cancelTransactionId: undefined }).success).toBe(false);
  });
});

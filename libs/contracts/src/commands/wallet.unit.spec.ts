import { describe, expect, it } from '@jest/globals';
import { sampleBetRequest } from '@reelstream/testing';
import { walletDeadLetter, walletReply, walletRequest, type WalletRequest } from './wallet.js';

const bet: WalletRequest = sampleBetRequest({ isBonusBusy: true });

describe('wallet.requests: bet | win | betwin in minor units (docs/architecture.md "Data", D10, D21)', () => {
  it('accepts a bet with isBonusBusy', () => expect(walletRequest.parse(bet)).toEqual(bet));

  it('accepts a free-spin win of 0 with bonusId = issueId (D10)', () => {
    const { isBonusBusy: _busy, amountMinor: _amount, ...common } = bet;
    const win = { ...common, command: 'win', amountMinor: 0, isRoundFinished: true, bonusId: 5 };
    expect(walletRequest.parse(win)).toEqual(win);
  });

  it('accepts a betwin with betMinor and winMinor', () => {
    const { isBonusBusy: _busy, amountMinor: _amount, ...common } = bet;
    expect(walletRequest.safeParse({ ...common, command: 'betwin', betMinor: 100, winMinor: 0 }).success).toBe(true);
    expect(walletRequest.safeParse({ ...common, command: 'betwin', betMinor: 0, winMinor: 10 }).success).toBe(false);
  });

  it('refuses a bet of 0, a decimal amount, a bet without isBonusBusy, and a cancel (the dispatcher makes those itself)', () => {
    expect(walletRequest.safeParse({ ...bet, amountMinor: 0 }).success).toBe(false);
    expect(walletRequest.safeParse({ ...bet, amountMinor: 1.5 }).success).toBe(false);
    expect(walletRequest.safeParse({ ...bet, isBonusBusy: undefined }).success).toBe(false);
    expect(walletRequest.safeParse({ ...bet, command: 'cancel' }).success).toBe(false);
  });
});

describe('wallet.replies: {transactionId, statusCode, balanceMinor?, canceled, reason?}', () => {
  it('an OK reply carries the balance and is not canceled', () => {
    expect(
      walletReply.safeParse({ transactionId: 101, statusCode: 'OK', balanceMinor: 9850, canceled: false }).success,
    ).toBe(true);
    expect(walletReply.safeParse({ transactionId: 101, statusCode: 'OK', canceled: false }).success).toBe(false);
    expect(
      walletReply.safeParse({ transactionId: 101, statusCode: 'OK', balanceMinor: 1, canceled: true }).success,
    ).toBe(false);
  });

  it('a failed bet says why and that the round was canceled', () => {
    const reply = { transactionId: 101, statusCode: 'ERR_UNKNOWN', canceled: true, reason: 'no reply within 3000 ms' };
    expect(walletReply.parse(reply)).toEqual(reply);
  });
});

describe('wallet.dead-letters: a win parked after its retries (decisions.md D11)', () => {
  it('carries the original request, why it is parked, the attempts and the last error', () => {
    const { isBonusBusy: _busy, ...common } = bet;
    const letter = {
      transactionId: 101,
      operatorId: 'demo',
      playerId: 'player_42',
      request: { ...common, command: 'win', isRoundFinished: true },
      reason: 'delivery_failed',
      attempts: 3,
      lastError: 'ERR_UNKNOWN',
      deadLetteredAt: '2026-05-01T10:00:12.000Z',
    };
    expect(walletDeadLetter.parse(letter)).toEqual(letter);
    // A win of an operator this dispatcher does not know is dead-lettered before any attempt.
    expect(walletDeadLetter.safeParse({ ...letter, reason: 'operator_not_configured', attempts: 0 }).success).toBe(
      true,
    );
    expect(walletDeadLetter.safeParse({ ...letter, reason: 'lost' }).success).toBe(false);
    expect(walletDeadLetter.safeParse({ ...letter, attempts: -1 }).success).toBe(false);
  });
});

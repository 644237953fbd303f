import { describe, expect, it } from '@jest/globals';
import { BonusTypes, type BonusCallRecord, type WalletReply } from '@reelstream/contracts';
import {
  betAccepted,
  betOf,
  betRefusalOf,
  createSeededRng,
  forfeitedFreeRound,
  paidRoundEnd,
  playRound,
  regularBonusFor,
  regularBonusOf,
  replayStored,
  spinKindOf,
} from '@reelstream/game-domain';
import { paidRoundStarted } from '@reelstream/testing';

const bonus: BonusCallRecord = {
  issueId: 7001,
  platformId: 'p-1',
  operatorId: 'casino-t',
  playerId: 'player_42',
  providerId: 1,
  gameIds: [101, 102],
  bonusType: BonusTypes.freeSpin,
  currency: 'EUR',
  callAmountMinor: 5_000,
  spinAmount: 10,
  baseBetAmountMinor: 100,
  spinsUsed: 2,
  spinsLeft: 8,
  totalWinMinor: 300,
  winCapLeftMinor: 4_700,
  openRoundId: null,
  status: 'active',
  expireAt: '2026-06-01T00:00:00.000Z',
  createdAt: '2026-05-01T00:00:00.000Z',
};
const session = { gameId: 101, currency: 'EUR' };

describe('which paid spins a Regular Bonus Call steers (ADR 0012)', () => {
  const regular: BonusCallRecord = {
    ...bonus,
    bonusType: BonusTypes.regular,
    spinAmount: null,
    baseBetAmountMinor: null,
    spinsLeft: null,
  };
  it('its active bonus, in one of its games and in its currency; nothing else', () => {
    expect(regularBonusFor(regular, session)).toBe(regular);
    expect(regularBonusFor(regular, { gameId: 103, currency: 'EUR' })).toBeUndefined();
    expect(regularBonusFor(regular, { gameId: 101, currency: 'KRW' })).toBeUndefined();
    expect(regularBonusFor({ ...regular, status: 'completed' }, session)).toBeUndefined();
    expect(regularBonusFor(bonus, session)).toBeUndefined();
    expect(regularBonusFor(null, session)).toBeUndefined();
    // The badge shows it in any currency of the session, in its games only.
    expect(regularBonusOf(regular, 101)).toBe(regular);
    expect(regularBonusOf(regular, 103)).toBeUndefined();
    expect(regularBonusOf({ ...regular, status: 'expired' }, 101)).toBeUndefined();
    expect(regularBonusOf(bonus, 101)).toBeUndefined();
    // Its paid spins are paid spins, with D21's isBonusBusy; never a free spin.
    expect(spinKindOf(regular, session, undefined)).toEqual({ kind: 'paid', isBonusBusy: true });
  });
});

describe('which round a spin is', () => {
  it('is a free spin of the active free-spin bonus of this game and currency, named or not', () => {
    expect(spinKindOf(bonus, session, undefined)).toEqual({ kind: 'free', bonus });
    expect(spinKindOf(bonus, session, 7001)).toEqual({ kind: 'free', bonus });
    const lastOpen = { ...bonus, spinsLeft: 0, openRoundId: 9 };
    expect(spinKindOf(lastOpen, session, undefined)).toEqual({ kind: 'free', bonus: lastOpen });
  });

  it('is paid, bonus-busy (D21), when the active bonus is not for this game, has no spins left, or is in another currency', () => {
    expect(spinKindOf(bonus, { ...session, gameId: 103 }, undefined)).toEqual({ kind: 'paid', isBonusBusy: true });
    expect(spinKindOf({ ...bonus, spinsLeft: 0 }, session, undefined)).toEqual({ kind: 'paid', isBonusBusy: true });
    expect(spinKindOf(bonus, { ...session, currency: 'USD' }, undefined)).toEqual({ kind: 'paid', isBonusBusy: true });
    expect(spinKindOf(null, session, undefined)).toEqual({ kind: 'paid', isBonusBusy: false });
    expect(spinKindOf({ ...bonus, status: 'completed' }, session, undefined)).toEqual({
      kind: 'paid',
      isBonusBusy: false,
    });
  });

  it('refuses a spin naming another bonus, or naming a bonus of another currency', () => {
    expect(spinKindOf(bonus, session, 7002)).toMatchObject({ code: 'BONUS_NOT_FOUND' });
    expect(spinKindOf(null, session, 7001)).toMatchObject({ code: 'BONUS_NOT_FOUND' });
    expect(spinKindOf(bonus, { ...session, currency: 'USD' }, 7001)).toMatchObject({
      code: 'BONUS_CURRENCY_MISMATCH',
      details: [{ path: 'issueId', message: 'bonus 7001 is in EUR; this session plays in USD' }],
    });
  });
});

describe('the stake of a paid spin', () => {
  const levels = [20, 100, 200];
  it('is one of the bet levels, in minor units', () => expect(betOf(1, levels, 'EUR')).toBe(100));
  it('is refused when missing, too precise, or not a level', () => {
    expect(betOf(undefined, levels, 'EUR')).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'bet' }] });
    expect(betOf(0.005, levels, 'EUR')).toMatchObject({ code: 'AMOUNT_PRECISION' });
    expect(betOf(3, levels, 'EUR')).toMatchObject({
      code: 'BET_NOT_ALLOWED',
      details: [{ path: 'bet', message: 'must be one of 0.2, 1, 2' }],
    });
  });
});

describe('a paid round on the wallet’s answer', () => {
  const started = paidRoundStarted();
  const now = '2026-05-01T10:00:01.000Z';
  const reply = (change: Partial<WalletReply>): WalletReply => ({
    transactionId: 502,
    statusCode: 'OK',
    balanceMinor: 900,
    canceled: false,
    ...change,
  });

  it('settles with the outcome and the win transaction when the bet is taken', () => {
    const outcome = playRound({ model: 'neon-fruits', profile: 'standard', betMinor: 100, rng: createSeededRng('r') });
    const end = paidRoundEnd({ started, answer: reply({}), outcome, winTransactionId: 503, now });
    expect(end).toMatchObject({
      type: 'RoundSettled',
      data: { roundId: 501, winMinor: outcome.winMinor, settledAt: now },
    });
    if (end.type !== 'RoundSettled') throw new Error('expected a settlement');
    expect(end.data.winTransactionId).toBe(503);
    expect(replayStored(end.data.outcome)).toEqual(outcome);
    expect(() => paidRoundEnd({ started, answer: reply({}), now })).toThrow(/without an outcome/);
  });

  it('a steered round that completes its Regular Bonus Call adds its top-up to the win and names it (ADR 0012)', () => {
    const outcome = playRound({ model: 'neon-fruits', profile: 'standard', betMinor: 100, rng: createSeededRng('t') });
    const end = paidRoundEnd({ started, answer: reply({}), outcome, winTransactionId: 503, topUpMinor: 7, now });
    expect(end).toMatchObject({ type: 'RoundSettled', data: { winMinor: outcome.winMinor + 7, topUpMinor: 7 } });
    const plain = paidRoundEnd({ started, answer: reply({}), outcome, winTransactionId: 503, topUpMinor: 0, now });
    expect(plain.data).not.toHaveProperty('topUpMinor');
  });

  it('cancels with the operator’s status and reason, and tells the player why', () => {
    const answer = reply({ statusCode: 'ERR_NOT_ENOUGH_MONEY', reason: 'low', canceled: true });
    expect(paidRoundEnd({ started, answer, now })).toEqual({
      type: 'RoundCanceled',
      data: { roundId: 501, reason: 'bet_rejected:ERR_NOT_ENOUGH_MONEY (low)', canceledAt: now },
    });
    expect(betRefusalOf('ERR_NOT_ENOUGH_MONEY').code).toBe('INSUFFICIENT_FUNDS');
    expect(betRefusalOf('ERR_NOT_AUTHENTICATED').code).toBe('PLAYER_NOT_AUTHENTICATED');
    expect(betRefusalOf(undefined)).toMatchObject({ code: 'BET_REJECTED', details: [{ message: 'ERR_UNKNOWN' }] });
  });

  it('takes the bet on OK only: every other status, ERR_UNKNOWN of no answer included, is a refusal', () => {
    expect(betAccepted(reply({}))).toBe(true);
    for (const statusCode of ['ERR_UNKNOWN', 'ERR_NOT_ENOUGH_MONEY', 'ERR_NOT_AUTHENTICATED'] as const)
      expect(betAccepted(reply({ statusCode }))).toBe(false);
  });
});

describe('a free round whose settle the ledger refuses', () => {
  it('is canceled when the ledger never started its spin, and stays open otherwise', () => {
    expect(forfeitedFreeRound(9, 'BONUS_EXPIRED', '2026-05-01T10:00:00.000Z')).toEqual({
      type: 'RoundCanceled',
      data: { roundId: 9, reason: 'free_spin_refused:BONUS_EXPIRED', canceledAt: '2026-05-01T10:00:00.000Z' },
    });
    expect(forfeitedFreeRound(9, 'SERVICE_UNAVAILABLE', '2026-05-01T10:00:00.000Z')).toBeUndefined();
  });
});

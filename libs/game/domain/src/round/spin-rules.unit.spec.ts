import { describe, expect, it } from '@jest/globals';
import { BonusTypes, type BonusCallRecord, type WalletReply } from '@reelstream/contracts';
import {
  betAccepted,
  betOf,
  betRefusalOf,
  createSeededRng,
  forfeitedFreeRound,
  freeSpinBonusFor,
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

  it('is paid when the active bonus is of another type, or lacks its spin amount or its base bet, whatever its spins left', () => {
    const others: BonusCallRecord[] = [
      { ...bonus, bonusType: BonusTypes.regular },
      { ...bonus, spinAmount: null },
      { ...bonus, baseBetAmountMinor: null },
    ];
    for (const other of others) {
      expect(freeSpinBonusFor(other, session.gameId)).toBeUndefined();
      expect(spinKindOf(other, session, undefined)).toEqual({ kind: 'paid', isBonusBusy: true });
    }
    expect(freeSpinBonusFor(bonus, session.gameId)).toBe(bonus);
  });

  it('refuses a spin naming another bonus, or naming a bonus of another currency', () => {
    expect(spinKindOf(bonus, session, 7002)).toMatchObject({
      code: 'BONUS_NOT_FOUND',
      message: 'This session has no active free-spin bonus with that id.',
    });
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
  it('is refused when missing, too precise, not a number, or not a level', () => {
    expect(betOf(undefined, levels, 'EUR')).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'A paid spin needs a bet.',
      details: [{ path: 'bet', message: 'required for a paid spin' }],
    });
    const tooPrecise = 'amount 0.005 has more than 2 decimal place(s) allowed for EUR';
    expect(betOf(0.005, levels, 'EUR')).toMatchObject({
      code: 'AMOUNT_PRECISION',
      message: tooPrecise,
      details: [{ path: 'bet', message: tooPrecise }],
    });
    expect(betOf(Number.NaN, levels, 'EUR')).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'amount must be a finite number, got NaN',
      details: [{ path: 'bet', message: 'amount must be a finite number, got NaN' }],
    });
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

  it('names no win transaction when there is none (a betwin’s win went with it)', () => {
    const outcome = playRound({ model: 'neon-fruits', profile: 'standard', betMinor: 100, rng: createSeededRng('w') });
    const end = paidRoundEnd({ started, answer: reply({}), outcome, now });
    expect(end.type).toBe('RoundSettled');
    expect(end.data).not.toHaveProperty('winTransactionId');
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
    expect(betRefusalOf('ERR_NOT_ENOUGH_MONEY', 501)).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      details: [
        { path: 'statusCode', message: 'ERR_NOT_ENOUGH_MONEY' },
        { path: 'roundId', message: '501' },
      ],
    });
    expect(betRefusalOf('ERR_NOT_AUTHENTICATED', 501)).toMatchObject({
      code: 'PLAYER_NOT_AUTHENTICATED',
      details: [
        { path: 'statusCode', message: 'ERR_NOT_AUTHENTICATED' },
        { path: 'roundId', message: '501' },
      ],
    });
    expect(betRefusalOf(undefined, 502)).toMatchObject({
      code: 'BET_REJECTED',
      details: [
        { path: 'statusCode', message: 'ERR_UNKNOWN' },
        { path: 'roundId', message: '502' },
      ],
    });
  });

  it('cancels with the status alone when the wallet gave no reason', () => {
    const answer = reply({ statusCode: 'ERR_UNKNOWN', canceled: true });
    expect(paidRoundEnd({ started, answer, now }).data).toMatchObject({ reason: 'bet_rejected:ERR_UNKNOWN' });
  });

  it('cuts a cancel reason at 1,000 characters, however long the wallet’s reason is', () => {
    const answer = reply({ statusCode: 'ERR_NOT_ENOUGH_MONEY', reason: 'x'.repeat(2000), canceled: true });
    const { reason } = paidRoundEnd({ started, answer, now }).data as { reason: string };
    expect(reason).toBe(`bet_rejected:ERR_NOT_ENOUGH_MONEY (${'x'.repeat(2000)}`.slice(0, 1000));
    expect(reason).toHaveLength(1000);
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

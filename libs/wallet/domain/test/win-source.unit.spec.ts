import { describe, expect, it } from '@jest/globals';
import type { FreeSpinSettled, RoundSettled, WalletWinRequest } from '@reelstream/contracts';
import { paidRoundStarted, paidRoundWin } from '@reelstream/testing';
import { checkFreeSpinWin, checkPaidRoundWin } from '../src/index.js';

const source = { stream: 'round-501', revision: 1, eventId: 'e-1' };
const paidWin = paidRoundWin(source);
const started = paidRoundStarted();
const settled: RoundSettled['data'] = {
  roundId: 501,
  outcome: {},
  winMinor: 250,
  settledAt: '2026-05-01T10:00:01.000Z',
  winTransactionId: 503,
};

describe('a paid round’s win against its source', () => {
  it('passes when every field matches the RoundSettled and RoundStarted', () => {
    expect(checkPaidRoundWin(paidWin, settled, started)).toEqual({ ok: true });
  });

  it('is refused as source_mismatch, naming each field that differs', () => {
    const check = checkPaidRoundWin({ ...paidWin, amountMinor: 9_999, playerId: 'player_43' }, settled, started);
    expect(check).toMatchObject({ ok: false, reason: 'source_mismatch' });
    if (check.ok) throw new Error('expected a refusal');
    expect(check.detail).toContain('amountMinor 9999 (source: 250)');
    expect(check.detail).toContain('playerId player_43 (source: player_42)');
  });

  it('names every field that differs, in one detail that names the source event', () => {
    const other = {
      ...paidWin,
      transactionId: 1,
      roundId: 2,
      amountMinor: 3,
      operatorId: 'casino-u',
      playerId: 'player_43',
      currency: 'SEK',
      bonusId: 4,
      gameId: 5,
      providerId: 6,
    };
    expect(checkPaidRoundWin(other, settled, { ...started, kind: 'free' })).toEqual({
      ok: false,
      reason: 'source_mismatch',
      detail:
        'win 1 differs from round-501@1: transactionId 1 (source: 503), roundId 2 (source: 501), ' +
        'amountMinor 3 (source: 250), operatorId casino-u (source: casino-t), playerId player_43 (source: player_42), ' +
        'currency SEK (source: EUR), bonusId 4 (source: 0), gameId 5 (source: 101), providerId 6 (source: 1), ' +
        'kind paid (source: free)',
    });
  });

  it('refuses a win claiming a free round’s RoundStarted as a paid round', () => {
    expect(checkPaidRoundWin(paidWin, settled, { ...started, kind: 'free' })).toMatchObject({ ok: false });
  });
});

describe('a free spin’s win against its source', () => {
  const spin: FreeSpinSettled['data'] = {
    issueId: 9001,
    roundId: 9002,
    gameId: 101,
    spinNumber: 1,
    rawWinMinor: 40,
    winMinor: 40,
    totalWinMinor: 40,
    spinsLeft: 9,
    settledAt: '2026-05-01T10:00:00.000Z',
    transactionId: 9003,
  };
  const owner = { operatorId: 'casino-t', playerId: 'player_42' };
  const win: WalletWinRequest = {
    ...paidWin,
    transactionId: 9003,
    roundId: 9002,
    bonusId: 9001,
    amountMinor: 40,
    source: { stream: 'playerBonus-casino-t-player_42', revision: 4, eventId: 'e-4' },
  };

  it('passes when it matches the FreeSpinSettled, the stream’s owner and the registration', () => {
    expect(checkFreeSpinWin(win, owner, spin, { currency: 'EUR', providerId: 1 })).toEqual({ ok: true });
  });

  it('names every field that differs from the spin, its stream’s owner and the registration', () => {
    const other = {
      ...win,
      transactionId: 1,
      operatorId: 'casino-u',
      playerId: 'player_43',
      roundId: 2,
      amountMinor: 3,
      bonusId: 4,
      gameId: 5,
      currency: 'SEK',
      providerId: 6,
    };
    expect(checkFreeSpinWin(other, owner, spin, { currency: 'EUR', providerId: 1 })).toEqual({
      ok: false,
      reason: 'source_mismatch',
      detail:
        'win 1 differs from playerBonus-casino-t-player_42@4: transactionId 1 (source: 9003), ' +
        'operatorId casino-u (source: casino-t), playerId player_43 (source: player_42), roundId 2 (source: 9002), ' +
        'amountMinor 3 (source: 40), bonusId 4 (source: 9001), gameId 5 (source: 101), currency SEK (source: EUR), ' +
        'providerId 6 (source: 1)',
    });
  });

  it('is refused in another currency or for another operator’s player of the same id', () => {
    expect(checkFreeSpinWin(win, owner, spin, { currency: 'SEK', providerId: 1 })).toMatchObject({ ok: false });
    expect(
      checkFreeSpinWin(win, { ...owner, operatorId: 'casino-u' }, spin, { currency: 'EUR', providerId: 1 }),
    ).toMatchObject({
      ok: false,
      reason: 'source_mismatch',
    });
  });
});

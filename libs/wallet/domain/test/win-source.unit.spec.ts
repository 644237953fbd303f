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

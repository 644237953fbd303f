import { describe, expect, it } from '@jest/globals';
import type { WalletBetRequest, WalletBetwinRequest } from '@reelstream/contracts';
import { betwinOutcome, paidRoundBet, paidRoundStarted } from '@reelstream/testing';
import { checkStake } from '../src/index.js';

const started = paidRoundStarted();
/** The bet of that round as the game-server sends it (rebuilt from its RoundStarted). */
const bet: WalletBetRequest = paidRoundBet({ requestedAt: started.startedAt });
const instant = paidRoundStarted({ betMinor: 200, outcome: betwinOutcome(200, 600), isBonusBusy: undefined });
const { amountMinor: _amount, isBonusBusy: _busy, ...roundOfBet } = bet;
const betwin: WalletBetwinRequest = { ...roundOfBet, command: 'betwin', betMinor: 200, winMinor: 600 };

const detailOf = (check: ReturnType<typeof checkStake>) => (check.ok ? '' : check.detail);

describe('a bet or betwin against its round’s RoundStarted', () => {
  it('passes when it is the request the RoundStarted makes', () => {
    expect(checkStake(bet, started)).toEqual({ ok: true });
    expect(checkStake(betwin, instant)).toEqual({ ok: true });
  });

  it('is refused when the round has no RoundStarted', () => {
    expect(checkStake(betwin, undefined)).toMatchObject({ ok: false, reason: 'source_not_found' });
  });

  it('is refused as source_mismatch naming each field that differs: operator, player, transaction, amounts', () => {
    const moved = checkStake(
      { ...bet, operatorId: 'casino-b', playerId: 'p_9', transactionId: 9, amountMinor: 5 },
      started,
    );
    expect(moved).toMatchObject({ ok: false, reason: 'source_mismatch' });
    for (const field of [
      'operatorId casino-b (RoundStarted: casino-t)',
      'playerId p_9',
      'transactionId 9',
      'amountMinor 5',
    ])
      expect(detailOf(moved)).toContain(field);
    expect(detailOf(checkStake({ ...betwin, winMinor: 77_700 }, instant))).toContain(
      'winMinor 77700 (RoundStarted: 600)',
    );
    expect(detailOf(checkStake({ ...bet, isBonusBusy: true }, started))).toContain('isBonusBusy true');
  });

  it('refuses a bet on a betwin round, a betwin on a bet round and a stake on a free round', () => {
    expect(checkStake({ ...bet, amountMinor: 200 }, instant)).toMatchObject({ ok: false, reason: 'source_mismatch' });
    expect(checkStake(betwin, started)).toMatchObject({ ok: false, reason: 'source_mismatch' });
    const free = paidRoundStarted({ kind: 'free', bonusId: 5, transactionId: undefined });
    expect(checkStake(bet, free)).toMatchObject({ ok: false, reason: 'source_mismatch' });
  });
});

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
    expect(checkStake(betwin, undefined)).toEqual({
      ok: false,
      reason: 'source_not_found',
      detail: 'betwin 502: round 501 has no RoundStarted',
    });
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

  it('names every differing field in one detail, in the request’s order', () => {
    expect(detailOf(checkStake({ ...bet, playerId: 'p_9', amountMinor: 5 }, started))).toBe(
      'bet 502 differs from round-501@0: playerId p_9 (RoundStarted: player_42), amountMinor 5 (RoundStarted: 100)',
    );
  });

  it('is refused as source_mismatch when the stored outcome replays to no round, the detail clipped at 1,000 characters', () => {
    const unknownModel = (modelId: string) =>
      paidRoundStarted({
        betMinor: 200,
        outcome: { modelId, profile: 'standard', betMinor: 200, draws: [0] },
        isBonusBusy: undefined,
      });
    expect(checkStake(betwin, unknownModel('no-such-model'))).toEqual({
      ok: false,
      reason: 'source_mismatch',
      detail: 'betwin 502: round 501: no game model with id "no-such-model"',
    });
    const long = detailOf(checkStake(betwin, unknownModel('m'.repeat(2_000))));
    expect(long).toHaveLength(1_000);
    expect(long).toMatch(/^betwin 502: round 501: no game model with id "m+$/);
  });

  it('refuses a bet on a betwin round, a betwin on a bet round and a stake on a free round', () => {
    expect(checkStake({ ...bet, amountMinor: 200 }, instant)).toMatchObject({ ok: false, reason: 'source_mismatch' });
    expect(checkStake(betwin, started)).toMatchObject({ ok: false, reason: 'source_mismatch' });
    const free = paidRoundStarted({ kind: 'free', bonusId: 5, transactionId: undefined });
    expect(checkStake(bet, free)).toEqual({
      ok: false,
      reason: 'source_mismatch',
      detail: 'bet 502: round 501 is a free round without a bet',
    });
  });

  it('refuses a stake on a free round even when it names a transaction, and on a paid round without one', () => {
    const freeWithTransaction = paidRoundStarted({ kind: 'free', bonusId: 5 });
    expect(detailOf(checkStake(bet, freeWithTransaction))).toBe('bet 502: round 501 is a free round without a bet');
    const paidWithoutTransaction = paidRoundStarted({ transactionId: undefined });
    expect(checkStake(bet, paidWithoutTransaction)).toEqual({
      ok: false,
      reason: 'source_mismatch',
      detail: 'bet 502: round 501 is a paid round without a bet',
    });
  });
});

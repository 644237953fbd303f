import { describe, expect, it } from '@jest/globals';
import { walletBetRequest, walletBetwinRequest, walletWinRequest } from '@reelstream/contracts';
import { paidRoundStarted, paidRoundWin } from '@reelstream/testing';
import { createSeededRng } from '../rng/seeded-rng.js';
import { playRound } from './play-round.js';
import type { RoundStartedData } from './round-decider.js';
import { storedRecord } from './stored-record.js';
import { paidRoundWinRequest, stakeRequestOf } from './wallet-requests.js';

const started = paidRoundStarted({ isBonusBusy: true });

describe('the wallet request of a started paid round', () => {
  it('is a bet rebuilt from the event alone, identical every time (the dispatcher answers a resend from its record), due 3 s after the spin was accepted', () => {
    const request = stakeRequestOf(started);
    expect(walletBetRequest.parse(request)).toEqual({
      command: 'bet',
      transactionId: 502,
      operatorId: 'casino-t',
      playerId: 'player_42',
      roundId: 501,
      providerId: 1,
      gameId: 101,
      currency: 'EUR',
      bonusId: 0,
      requestedAt: '2026-05-01T10:00:00.000Z',
      deadline: '2026-05-01T10:00:03.000Z',
      amountMinor: 100,
      isBonusBusy: true,
    });
    expect(stakeRequestOf(structuredClone(started))).toEqual(request);
  });

  it('is a betwin carrying the win of the outcome recorded before it (the instant game)', () => {
    const outcome = playRound({
      model: 'lucky-wheel',
      profile: 'standard',
      betMinor: 100,
      rng: createSeededRng('wheel'),
    });
    const request = stakeRequestOf({
      ...started,
      gameId: 203,
      providerId: 2,
      isBonusBusy: undefined,
      outcome: storedRecord(outcome),
    } as RoundStartedData);
    expect(walletBetwinRequest.parse(request)).toMatchObject({
      command: 'betwin',
      deadline: '2026-05-01T10:00:03.000Z',
      betMinor: 100,
      winMinor: outcome.winMinor,
    });
  });

  it('is a bet that is not bonus-busy when its RoundStarted does not say isBonusBusy (the field is optional)', () => {
    const { isBonusBusy: _isBonusBusy, ...withoutBusy } = started;
    expect(stakeRequestOf(withoutBusy)).toMatchObject({ command: 'bet', isBonusBusy: false });
  });

  it('refuses a paid round without a bet transaction', () => {
    const { transactionId: _transactionId, ...withoutTransaction } = started;
    expect(() => stakeRequestOf(withoutTransaction)).toThrow(/no bet transaction/);
  });
});

describe('the win of a settled paid round', () => {
  const source = { stream: 'round-501', revision: 1, eventId: 'e-501-1' };
  const settled = {
    roundId: 501,
    outcome: {},
    winMinor: 250,
    settledAt: '2026-05-01T10:00:01.000Z',
    winTransactionId: 503,
  };

  it('is a win of the round’s parties with bonusId 0 and isRoundFinished, naming its RoundSettled', () => {
    expect(walletWinRequest.parse(paidRoundWinRequest(started, settled, source))).toEqual(paidRoundWin(source));
  });

  it('carries the steering Regular Bonus Call’s issueId as bonusId on the bet and the win (ADR 0012)', () => {
    const steered = { ...started, bonusId: 9_001 };
    expect(stakeRequestOf(steered)).toMatchObject({ command: 'bet', bonusId: 9_001 });
    expect(paidRoundWinRequest(steered, settled, source)).toMatchObject({
      command: 'win',
      bonusId: 9_001,
      amountMinor: 250,
    });
  });

  it('is none when the round had no win transaction (a betwin carried its win)', () => {
    const { winTransactionId: _winTransactionId, ...withoutWin } = settled;
    expect(paidRoundWinRequest(started, withoutWin, source)).toBeUndefined();
  });
});

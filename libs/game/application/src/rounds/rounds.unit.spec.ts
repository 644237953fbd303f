import { describe, expect, it } from '@jest/globals';
import { walletBetRequest, walletBetwinRequest } from '@reelstream/contracts';
import { createSeededRng, playRound, storedRecord, type SlotOutcome } from '@reelstream/game-domain';
import { outcomeView } from './outcome-view.js';
import { stakeRequestOf } from './paid-rounds.js';
import type { RoundStartedData } from './round-streams.js';

const started: RoundStartedData = {
  roundId: 501,
  sessionToken: 'q3Yx0mVb7m2c1kTzV3dH0rFfQm8uJ6nE9sWc4aLpB2g',
  operatorId: 'casino-t',
  playerId: 'player_42',
  providerId: 1,
  gameId: 101,
  kind: 'paid',
  currency: 'EUR',
  betMinor: 100,
  bonusId: 0,
  rtpProfile: 'standard',
  startedAt: '2026-05-01T10:00:00.000Z',
  transactionId: 502,
  isBonusBusy: true,
};

describe('the wallet request of a started paid round', () => {
  it('is a bet rebuilt from the event alone, identical every time (the dispatcher answers a resend from its record)', () => {
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
      betMinor: 100,
      winMinor: outcome.winMinor,
    });
  });

  it('refuses a paid round without a bet transaction', () => {
    const { transactionId: _transactionId, ...withoutTransaction } = started;
    expect(() => stakeRequestOf(withoutTransaction)).toThrow(/no bet transaction/);
  });
});

describe('the outcome as the page shows it', () => {
  it('converts each paying line, the scatters and the feature to money that adds up to the win', () => {
    const rng = createSeededRng('view');
    let checked = 0;
    for (let i = 0; i < 3_000 && checked < 40; i++) {
      const outcome = playRound({ model: 'neon-fruits', profile: 'standard', betMinor: 100, rng }) as SlotOutcome;
      if (outcome.winMinor === 0) continue;
      const view = outcomeView(outcome, 'EUR');
      if (view.kind !== 'slot') throw new Error('expected a slot view');
      expect(view.window).toEqual(outcome.base.window);
      const base =
        view.lineWins.reduce((sum, line) => sum + Math.round(line.win * 100), 0) + Math.round(view.scatterWin * 100);
      expect(base).toBe(Math.round(view.win * 100));
      expect(Math.round(view.win * 100) + Math.round((view.feature?.win ?? 0) * 100)).toBe(outcome.winMinor);
      checked++;
    }
    expect(checked).toBe(40);
  });

  it('shows the instant game’s segment and its multiplier of the bet', () => {
    const outcome = playRound({
      model: 'lucky-wheel',
      profile: 'standard',
      betMinor: 200,
      rng: createSeededRng('wheel-view'),
    });
    if (outcome.kind !== 'instant') throw new Error('expected an instant round');
    expect(outcomeView(outcome, 'EUR')).toEqual({
      kind: 'instant',
      segment: outcome.segment,
      multiplier: outcome.multiplierCoins / 10,
    });
  });
});

import { describe, expect, it } from '@jest/globals';
import { createSeededRng, playRound, type SlotOutcome } from '@reelstream/game-domain';
import { outcomeView } from './outcome-view.js';

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

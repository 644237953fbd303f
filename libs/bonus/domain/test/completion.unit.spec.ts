import { describe, expect, it } from '@jest/globals';
import { completedBySpin, completionReasonOf } from '../src/index.js';

describe('completion of a bonus call by a settled spin (R13)', () => {
  it('is the win cap first, then the last spin, else none', () => {
    expect(completionReasonOf(5_000, 5_000, 3)).toBe('win_cap_reached');
    expect(completionReasonOf(5_000, 5_000, 0)).toBe('win_cap_reached');
    expect(completionReasonOf(5_000, 4_999, 0)).toBe('spins_used');
    expect(completionReasonOf(5_000, 4_999, 1)).toBeUndefined();
  });

  it('is the answer to the game only when the bonus call is completed, not expired or canceled meanwhile', () => {
    const lastSpin = { totalWinMinor: 100, spinsLeft: 0 };
    expect(completedBySpin({ status: 'completed', callAmountMinor: 5_000 }, lastSpin)).toBe(true);
    expect(completedBySpin({ status: 'expired', callAmountMinor: 5_000 }, lastSpin)).toBe(false);
    expect(completedBySpin({ status: 'canceled', callAmountMinor: 5_000 }, { ...lastSpin, totalWinMinor: 5_000 })).toBe(
      false,
    );
    expect(completedBySpin({ status: 'completed', callAmountMinor: 5_000 }, { totalWinMinor: 100, spinsLeft: 2 })).toBe(
      false,
    );
  });
});

import { describe, expect, it } from '@jest/globals';
import { capWin, coinsToMinor, exactBetStepMinor, findModel, type GameModel } from '@reelstream/game-domain';
import { AmountError } from '@reelstream/money';

const model = (id: string): GameModel => {
  const found = findModel(id);
  if (!found) throw new Error(`model ${id} missing`);
  return found;
};

describe('coins to minor units', () => {
  it('rounds down: floor(bet · coins / coinsPerBet)', () => {
    expect(coinsToMinor(100, 23, 4)).toBe(575);
    expect(coinsToMinor(10, 23, 4)).toBe(57);
    expect(coinsToMinor(3, 1, 4)).toBe(0);
    expect(coinsToMinor(250, 0, 25)).toBe(0);
  });

  it('stays exact at the top of the safe integer range', () => {
    // (2^53 - 1) / 3 = 3002399751580330.33…
    expect(coinsToMinor(Number.MAX_SAFE_INTEGER, 1, 3)).toBe(3002399751580330);
    expect(coinsToMinor(2 ** 52 + 1, 1, 2 ** 52)).toBe(1);
  });

  it('refuses overflow and malformed inputs instead of returning a wrong amount', () => {
    expect(() => coinsToMinor(Number.MAX_SAFE_INTEGER, 2, 3)).toThrow(AmountError);
    expect(() => coinsToMinor(100, -1, 4)).toThrow(AmountError);
    expect(() => coinsToMinor(100, 1.5, 4)).toThrow(AmountError);
    expect(() => coinsToMinor(100, 1, 0)).toThrow(AmountError);
  });

  it('knows the bet step at which a model never rounds', () => {
    expect(exactBetStepMinor(model('lotus-garden'))).toBe(20);
    expect(exactBetStepMinor(model('thunder-vault'))).toBe(25);
    expect(exactBetStepMinor(model('neon-fruits'))).toBe(10);
    expect(exactBetStepMinor(model('lucky-wheel'))).toBe(10);
  });
});

describe('win cap of a free-spin bonus', () => {
  it('pays the whole win while the cap allows it', () => {
    expect(capWin(500, 1000)).toEqual({ winMinor: 500, capped: false });
    expect(capWin(1000, 1000)).toEqual({ winMinor: 1000, capped: false });
    expect(capWin(0, 0)).toEqual({ winMinor: 0, capped: false });
  });

  it('cuts the win down to what is left of the cap', () => {
    expect(capWin(1500, 1000)).toEqual({ winMinor: 1000, capped: true });
    expect(capWin(1, 0)).toEqual({ winMinor: 0, capped: true });
  });

  it('refuses negative or fractional amounts', () => {
    expect(() => capWin(-1, 100)).toThrow(AmountError);
    expect(() => capWin(10, -1)).toThrow(AmountError);
    expect(() => capWin(0.5, 100)).toThrow(AmountError);
  });
});

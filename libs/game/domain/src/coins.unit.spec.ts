import { describe, expect, it } from '@jest/globals';
import {
  capWin,
  coinsToMinor,
  exactBetStep,
  exactBetStepMinor,
  findModel,
  type GameModel,
} from '@reelstream/game-domain';
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

  it('pays the bet times the coins when a bet is one coin', () => {
    expect(coinsToMinor(100, 3, 1)).toBe(300);
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

  it('says which input is malformed', () => {
    expect(() => coinsToMinor(100, 1, 0)).toThrow(
      new AmountError('AMOUNT_INVALID', 'coinsPerBet must be a positive integer, got 0'),
    );
    expect(() => coinsToMinor(100, 1, 2.5)).toThrow('coinsPerBet must be a positive integer, got 2.5');
    expect(() => coinsToMinor(100, -1, 4)).toThrow(
      new AmountError('AMOUNT_INVALID', 'coins must be a non-negative integer, got -1'),
    );
    expect(() => coinsToMinor(100, 1.5, 4)).toThrow('coins must be a non-negative integer, got 1.5');
  });

  it('needs bets of coinsPerBet / gcd(coinsPerBet, coinGranularity) minor units for wins that never round', () => {
    // 20 coins a bet, wins in steps of 4 coins: a win is a multiple of 1/5 of the bet, so 5 minor units suffice.
    expect(exactBetStep(20, 4)).toBe(5);
    expect(exactBetStep(25, 10)).toBe(5);
    expect(exactBetStep(10, 3)).toBe(10);
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

  it("over a bonus's spins, the wins paid add up to the raw wins until the cap, then to the cap exactly", () => {
    // A cap of 10.00 over five spins; the third spin's win meets what is left exactly, the fourth passes it.
    const callAmountMinor = 1_000;
    const rawWins = [250, 0, 350, 700, 90];
    let paidMinor = 0;
    const spins = rawWins.map((raw) => {
      const win = capWin(raw, callAmountMinor - paidMinor);
      paidMinor += win.winMinor;
      return { ...win, paidMinor };
    });
    expect(spins).toEqual([
      { winMinor: 250, capped: false, paidMinor: 250 },
      { winMinor: 0, capped: false, paidMinor: 250 },
      { winMinor: 350, capped: false, paidMinor: 600 },
      { winMinor: 400, capped: true, paidMinor: 1_000 },
      { winMinor: 0, capped: true, paidMinor: 1_000 },
    ]);
    // A win that meets what is left exactly is paid in full and is not a capped win.
    expect(capWin(400, 400)).toEqual({ winMinor: 400, capped: false });
  });

  it('refuses negative or fractional amounts', () => {
    expect(() => capWin(-1, 100)).toThrow(AmountError);
    expect(() => capWin(10, -1)).toThrow(AmountError);
    expect(() => capWin(0.5, 100)).toThrow(AmountError);
  });
});

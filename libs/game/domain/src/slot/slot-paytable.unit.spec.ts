import { describe, expect, it } from '@jest/globals';
import { replayRound, type SlotModel, type SlotOutcome } from '@reelstream/game-domain';
import { column, columnsModel } from '../../test/fixtures.js';

/** Plays one round of `model` whose reels stop where the test says (draws are reel stops). */
function spin(model: SlotModel, draws: number[], betMinor = 100): SlotOutcome {
  const outcome = replayRound({ modelId: model.id, profile: 'standard', betMinor, draws }, model);
  if (outcome.kind !== 'slot') throw new Error('expected a slot outcome');
  return outcome;
}

const base = [column(0), column(0), column(0), column(0), column(0)];

describe('slot paytable on hand-set reel stops', () => {
  it('pays left-to-right runs, with the wild standing in for the symbol', () => {
    // columns are top, middle, bottom
    const model = columnsModel([['CAB'], ['CWB'], ['BAC'], ['BAA'], ['BCA']]);
    const outcome = spin(model, base);

    expect(outcome.base.window).toEqual(['CAB', 'CWB', 'BAC', 'BAA', 'BCA']);
    expect(outcome.base.lineWins).toEqual([
      { line: 0, symbol: 'A', count: 4, coins: 20 }, // A W A A | C
      { line: 1, symbol: 'C', count: 2, coins: 1 }, // C C | B B B
      { line: 3, symbol: 'C', count: 3, coins: 2 }, // V: C W C | A B
    ]);
    expect(outcome.base.winCoins).toBe(23);
    expect(outcome.winCoins).toBe(23);
    expect(outcome.winMinor).toBe(575); // 100 · 23 / 4
    expect(outcome.bonus).toBeNull();
  });

  it('pays a leading run of wilds as wilds only when that pays more than the symbol run', () => {
    const model = columnsModel([['WWW'], ['WWW'], ['WWW'], ['ACW'], ['BCW']]);
    const outcome = spin(model, base);

    expect(outcome.base.lineWins).toEqual([
      { line: 0, symbol: 'C', count: 5, coins: 10 }, // W W W C C: C×5 = 10 ties W×3 = 10, the symbol wins ties
      { line: 1, symbol: 'A', count: 4, coins: 20 }, // W W W A | B: A×4 = 20 beats W×3 = 10
      { line: 2, symbol: 'W', count: 5, coins: 500 }, // five wilds
      { line: 3, symbol: 'W', count: 3, coins: 10 }, // W W W C B: W×3 = 10 beats C×4 = 4
    ]);
    expect(outcome.winCoins).toBe(540);
  });

  it('never lets a scatter complete a line, and two scatters neither pay nor trigger the bonus', () => {
    const model = columnsModel([['AAB'], ['BSB'], ['CSC'], ['CBA'], ['BAC']]);
    const outcome = spin(model, base);

    expect(outcome.base.lineWins).toEqual([]); // middle is A S S B A: the scatter breaks the run of A
    expect(outcome.base.scatterCount).toBe(2);
    expect(outcome.base.scatterWinCoins).toBe(0);
    expect(outcome.bonus).toBeNull();
    expect(outcome.winCoins).toBe(0);
    expect(outcome.winMinor).toBe(0);
    expect(outcome.draws).toHaveLength(5);
  });

  it('pays three scatters anywhere and awards bonus games with the multiplier, which cannot retrigger', () => {
    const model = columnsModel([
      ['SAB', 'AAA'],
      ['ABC', 'AAA'],
      ['BCS', 'AAA'],
      ['CAB', 'BBB'],
      ['ASB', 'CCC'],
    ]);
    const bonusWithLineWins = [column(1), column(1), column(1), column(1), column(1)];
    const outcome = spin(model, [...base, ...bonusWithLineWins, ...base]);

    expect(outcome.base.lineWins).toEqual([]);
    expect(outcome.base.scatterCount).toBe(3);
    expect(outcome.base.scatterWinCoins).toBe(8);
    const bonus = outcome.bonus;
    if (!bonus) throw new Error('three scatters must trigger the bonus');
    expect(bonus).toMatchObject({ triggeredBy: 3, awardedGames: 2, multiplier: 3 });
    expect(bonus.spins).toHaveLength(2);
    expect(bonus.spins[0]?.window).toEqual(['AAA', 'AAA', 'AAA', 'BBB', 'CCC']); // each reel on its second column
    expect(bonus.spins[0]?.stops).toEqual([3, 3, 3, 3, 3]);
    // game 1: A A A | B C on each of the 4 lines = 4 × 5 coins, tripled
    expect(bonus.spins[0]?.lineWins).toHaveLength(4);
    expect(bonus.spins[0]?.winCoins).toBe(60);
    // game 2 shows three scatters again: they pay (tripled) but award no further games
    expect(bonus.spins[1]?.scatterCount).toBe(3);
    expect(bonus.spins[1]?.winCoins).toBe(24);
    expect(bonus.winCoins).toBe(84);
    expect(outcome.winCoins).toBe(92);
    expect(outcome.draws).toHaveLength(15);
  });

  it('awards the bonus of the largest listed scatter count at or below the count shown', () => {
    // freeGames { 3: 2, 5: 4 }, scatterPays { 3: 8, 4: 40 }: four scatters take the entries of 3 and 4
    const model = columnsModel([
      ['SAB', 'ABC'],
      ['ASB', 'ABC'],
      ['BCS', 'ABC'],
      ['SAB', 'ABC'],
      ['ABC', 'ABC'],
    ]);
    const noWin = [column(1), column(1), column(1), column(1), column(1)];
    const outcome = spin(model, [...base, ...noWin, ...noWin]);

    expect(outcome.base.scatterCount).toBe(4);
    expect(outcome.base.scatterWinCoins).toBe(40);
    expect(outcome.bonus?.awardedGames).toBe(2);
  });

  it('converts a win to minor units rounding down, never up', () => {
    const model = columnsModel([['CAB'], ['CWB'], ['BAC'], ['BAA'], ['BCA']]); // 23 coins, 4 coins per bet
    expect(spin(model, base, 10).winMinor).toBe(57); // 10 · 23 / 4 = 57.5
    expect(spin(model, base, 4).winMinor).toBe(23);
    expect(spin(model, base, 1).winMinor).toBe(5); // 5.75
  });
});

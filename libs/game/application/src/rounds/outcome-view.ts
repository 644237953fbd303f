/**
 * A round's outcome as the page shows it: the visible window, each paying line and the feature
 * games, in currency units. Line and scatter pays are coins before the spin's multiplier; each is
 * converted the way the engine converts the total (`coinsToMinor`, always rounding down).
 */
import type { RoundOutcomeView } from '@reelstream/contracts';
import { coinsToMinor, type RoundOutcome, type SlotSpin } from '@reelstream/game-domain';
import { formatAmount } from '@reelstream/money';

export function outcomeView(outcome: RoundOutcome, currency: string): RoundOutcomeView {
  const money = (coins: number) => formatAmount(coinsToMinor(outcome.betMinor, coins, outcome.coinsPerBet), currency);
  if (outcome.kind === 'instant') {
    return { kind: 'instant', segment: outcome.segment, multiplier: outcome.multiplierCoins / outcome.coinsPerBet };
  }
  const spin = (played: SlotSpin) => ({
    window: [...played.window],
    lineWins: played.lineWins.map((line) => ({
      line: line.line,
      symbol: line.symbol,
      count: line.count,
      win: money(line.coins * played.multiplier),
    })),
    scatterCount: played.scatterCount,
    scatterWin: money(played.scatterWinCoins * played.multiplier),
    multiplier: played.multiplier,
    win: money(played.winCoins),
  });
  const { bonus } = outcome;
  return {
    kind: 'slot',
    ...spin(outcome.base),
    feature: bonus
      ? {
          awardedGames: bonus.awardedGames,
          multiplier: bonus.multiplier,
          spins: bonus.spins.map(spin),
          win: money(bonus.winCoins),
        }
      : null,
  };
}

/** Sums of a simulation run, in coins; kept as plain fields so the hot loop only adds. */
export class SimulationTally {
  rounds = 0;
  winCoins = 0;
  winCoinsSquared = 0;
  hits = 0;
  bonusTriggers = 0;
  bonusGames = 0;

  add(winCoins: number): void {
    this.rounds++;
    this.winCoins += winCoins;
    this.winCoinsSquared += winCoins * winCoins;
    if (winCoins > 0) this.hits++;
  }
}

export interface SimulationResult {
  readonly spins: number;
  readonly totalBetCoins: number;
  readonly totalWinCoins: number;
  /** Total win / total bet. */
  readonly rtp: number;
  /** Share of paid rounds that won anything (bonus games included in their round). */
  readonly hitRate: number;
  readonly bonusTriggerRate: number;
  /** Bonus games played in all rounds together (each one a spin of its own). */
  readonly bonusGames: number;
  /** Standard deviation of one paid round's win, in bets (win / bet). */
  readonly stdDevPerSpin: number;
}

export function summarize(tally: SimulationTally, coinsPerBet: number): SimulationResult {
  const spins = tally.rounds;
  const meanBets = tally.winCoins / coinsPerBet / spins;
  const meanSquareBets = tally.winCoinsSquared / (coinsPerBet * coinsPerBet) / spins;
  return {
    spins,
    totalBetCoins: spins * coinsPerBet,
    totalWinCoins: tally.winCoins,
    rtp: tally.winCoins / (spins * coinsPerBet),
    hitRate: tally.hits / spins,
    bonusTriggerRate: tally.bonusTriggers / spins,
    bonusGames: tally.bonusGames,
    stdDevPerSpin: Math.sqrt(Math.max(0, meanSquareBets - meanBets * meanBets)),
  };
}

import type { CompiledSlot } from './compiled-slot.js';

/**
 * The exact return of a slot profile, from the strips and the paytable alone.
 *
 * Why it is exact: reel stops are independent and uniform over each strip, so any one visible
 * cell of reel r shows symbol s with probability (copies of s on strip r) / (strip length), and
 * the cells of one payline (one per reel) are independent. Every payline therefore has the same
 * expected pay, Σ over symbol tuples of pay(tuple) · Π p_r(s_r), and by linearity of expectation
 * the lines together pay lineCount times that, however much they overlap. The visible scatter
 * count is a sum of independent per-reel counts: its distribution is the convolution of each
 * reel's distribution over its stops. Bonus games are independent spins on the same strips, so
 * the bonus returns Σ_k P(k scatters) · games(k) · multiplier · E[spin pay].
 */
export interface SlotRtpBreakdown {
  readonly rtp: number;
  readonly lineRtp: number;
  readonly scatterRtp: number;
  readonly bonusRtp: number;
  readonly bonusTriggerProbability: number;
  /** Expected bonus games per paid spin. */
  readonly bonusGamesPerSpin: number;
  /** P(k visible scatters), k = 0 .. reels × rows. */
  readonly scatterDistribution: readonly number[];
}

export function slotRtp(slot: CompiledSlot): SlotRtpBreakdown {
  const { reelCount, symbolCount, stripOffset, stripLength, stripSymbols, linePayCoins } = slot;

  const cellProbability: Float64Array[] = [];
  // Stryker disable next-line EqualityOperator: a reel past the last adds an entry no key reads.
  for (let r = 0; r < reelCount; r++) {
    const copies = new Float64Array(symbolCount);
    const offset = stripOffset[r] ?? 0;
    const length = stripLength[r] ?? 0;
    for (let stop = 0; stop < length; stop++) {
      const symbol = stripSymbols[offset + stop] ?? 0;
      copies[symbol] = (copies[symbol] ?? 0) + 1;
    }
    cellProbability.push(copies.map((count) => count / length));
  }

  let linePayExpectation = 0;
  // Stryker disable next-line EqualityOperator: a key past the table reads no coins and adds nothing.
  for (let key = 0; key < linePayCoins.length; key++) {
    const coins = linePayCoins[key] ?? 0;
    // Stryker disable next-line ConditionalExpression: only spares the work (a key that pays nothing adds 0).
    if (coins === 0) continue;
    let probability = 1;
    let rest = key;
    for (let r = reelCount - 1; r >= 0; r--) {
      probability *= cellProbability[r]?.[rest % symbolCount] ?? 0;
      rest = Math.floor(rest / symbolCount);
    }
    linePayExpectation += coins * probability;
  }
  const lineCoins = linePayExpectation * slot.lineCount;

  const scatterDistribution = visibleScatterDistribution(slot);
  let scatterCoins = 0;
  let bonusTriggerProbability = 0;
  let bonusGamesPerSpin = 0;
  scatterDistribution.forEach((probability, count) => {
    scatterCoins += probability * (slot.scatterPayCoins[count] ?? 0);
    const games = slot.freeGames[count] ?? 0;
    if (games > 0) bonusTriggerProbability += probability;
    bonusGamesPerSpin += probability * games;
  });

  const spinCoins = lineCoins + scatterCoins;
  const bonusCoins = bonusGamesPerSpin * slot.bonusMultiplier * spinCoins;
  const perBet = 1 / slot.coinsPerBet;
  return {
    rtp: (spinCoins + bonusCoins) * perBet,
    lineRtp: lineCoins * perBet,
    scatterRtp: scatterCoins * perBet,
    bonusRtp: bonusCoins * perBet,
    bonusTriggerProbability,
    bonusGamesPerSpin,
    scatterDistribution,
  };
}

function visibleScatterDistribution(slot: CompiledSlot): number[] {
  let distribution = [1];
  for (let r = 0; r < slot.reelCount; r++) {
    const offset = slot.stripOffset[r] ?? 0;
    const length = slot.stripLength[r] ?? 0;
    const reel: number[] = [];
    for (let stop = 0; stop < length; stop++) {
      const count = slot.windowScatters[offset + stop] ?? 0;
      reel[count] = (reel[count] ?? 0) + 1;
    }
    for (let count = 0; count <= slot.rows; count++) reel[count] = (reel[count] ?? 0) / length;
    const next: number[] = [];
    distribution.forEach((p, sofar) =>
      reel.forEach((q, more) => (next[sofar + more] = (next[sofar + more] ?? 0) + p * q)),
    );
    distribution = next;
  }
  return distribution;
}

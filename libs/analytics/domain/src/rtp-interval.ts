/**
 * The 95 % confidence interval of a measured RTP, shared by the game-performance table and the
 * HTML report's chart: the normal approximation from the rounds' own spread of win/bet around
 * wins / turnover (exact for one bet level, close across levels).
 *
 * A measured RTP is "insufficient" to compare with its target when fewer than 30 rounds were
 * played (the approximation does not hold) or when the interval is wider than ±1 percentage point
 * either side: a slot's RTP is a property of millions of spins, and a few thousand say little.
 */

/** Sums folded round by round. */
export interface RtpSums {
  rounds: number;
  turnoverMinor: number;
  winsMinor: number;
  /** Σ win/bet and Σ (win/bet)². */
  ratios: number;
  squares: number;
}

export interface RtpInterval {
  readonly measured: number;
  readonly low: number;
  readonly high: number;
  readonly insufficient: boolean;
}

const Z95 = 1.959964;
/** Fewer rounds than this: the normal approximation does not hold. */
const MIN_RTP_ROUNDS = 30;
/** Half-width of the interval beyond which the measured RTP says too little (one percentage point). */
const RTP_MARGIN_LIMIT = 0.01;

export const emptyRtpSums = (): RtpSums => ({ rounds: 0, turnoverMinor: 0, winsMinor: 0, ratios: 0, squares: 0 });

export function addRound(sums: RtpSums, betMinor: number, winMinor: number): void {
  const ratio = winMinor / betMinor;
  sums.rounds += 1;
  sums.turnoverMinor += betMinor;
  sums.winsMinor += winMinor;
  sums.ratios += ratio;
  sums.squares += ratio * ratio;
}

/** The interval, or null without turnover. */
export function rtpInterval(sums: RtpSums): RtpInterval | null {
  const n = sums.rounds;
  if (n === 0 || sums.turnoverMinor === 0) return null;
  const measured = sums.winsMinor / sums.turnoverMinor;
  const variance = n > 1 ? Math.max(0, (sums.squares - (sums.ratios * sums.ratios) / n) / (n - 1)) : 0;
  const margin = (Z95 * Math.sqrt(variance)) / Math.sqrt(n);
  return {
    measured,
    low: Math.max(0, measured - margin),
    high: measured + margin,
    insufficient: n < MIN_RTP_ROUNDS || margin > RTP_MARGIN_LIMIT,
  };
}

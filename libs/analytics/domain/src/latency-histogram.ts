/**
 * Latencies of one report row in bounded memory: every millisecond below 10 s is its own bin
 * (percentiles there are exact: the log records instants to the millisecond), and above 10 s bins
 * grow by 2 % each, a value read back as its bin's centre, at most 1 % from the true latency.
 * So a row holds at most 10,000 + ~60 bins per decade above 10 s however many calls it counts
 * (bins are kept sparse: only those a latency fell in). The maximum is kept exactly.
 */
const EXACT_BELOW_MS = 10_000;
const GROWTH = 1.02;
const LOG_GROWTH = Math.log(GROWTH);

/** The bin of a latency: itself below 10 s, else −(1 + its log-spaced bin's number). */
function binOf(ms: number): number {
  if (ms < EXACT_BELOW_MS) return ms;
  return -(1 + Math.floor(Math.log(ms / EXACT_BELOW_MS) / LOG_GROWTH));
}

/** What a bin reads back as: its value, or the centre of a log-spaced bin (relative error ≤ (γ−1)/(γ+1) < 1 %). */
function valueOf(bin: number): number {
  if (bin >= 0) return bin;
  const low = EXACT_BELOW_MS * GROWTH ** (-bin - 1);
  return Math.round((2 * low * GROWTH) / (1 + GROWTH));
}

export class LatencyHistogram {
  private readonly bins = new Map<number, number>();
  count = 0;
  max: number | null = null;

  add(ms: number): void {
    const value = Math.max(0, Math.round(ms));
    const bin = binOf(value);
    this.bins.set(bin, (this.bins.get(bin) ?? 0) + 1);
    this.count += 1;
    if (this.max === null || value > this.max) this.max = value;
  }

  /** Latencies above `limitMs` (exact for limits below 10 s; above, counted by the bin's centre). */
  countAbove(limitMs: number): number {
    let above = 0;
    for (const [bin, count] of this.bins) if (valueOf(bin) > limitMs) above += count;
    return above;
  }

  /** Nearest-rank percentile (as wallet-delivery's): the smallest value with at least p % of the values at or under it. */
  percentile(p: number): number | null {
    if (this.count === 0) return null;
    const rank = Math.max(1, Math.ceil((p / 100) * this.count));
    const ordered = [...this.bins.entries()].map(([bin, count]) => [valueOf(bin), count] as const);
    ordered.sort((a, b) => a[0] - b[0]);
    let seen = 0;
    for (const [value, count] of ordered) {
      seen += count;
      if (seen >= rank) return Math.min(value, this.max ?? value);
    }
    return this.max;
  }

  /** Bins in use (memory). */
  get size(): number {
    return this.bins.size;
  }
}

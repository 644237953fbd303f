/**
 * The one source of randomness of every game round.
 *
 * Contract: `nextInt(maxExclusive)` returns an integer uniformly distributed over
 * `[0, maxExclusive)`, without modulo bias, for any integer `maxExclusive` in `[1, 2^32]`.
 *
 * Two implementations exist and the engine cannot tell them apart:
 * - production: the game-server wraps `node:crypto` `randomInt(maxExclusive)` (a CSPRNG, already unbiased);
 *   it lives in the app because the domain does no I/O and holds no entropy source;
 * - simulation and tests: `createSeededRng(seed)` (sfc32), fast and reproducible.
 * A round never sees anything but the integers it drew, which is what makes it replayable (`ReplayRng`).
 */
import { InvariantError } from '../model-error.js';

export interface Rng {
  nextInt(maxExclusive: number): number;
}

export const MAX_DRAW_BOUND = 0x1_0000_0000;

export class RngRangeError extends InvariantError {
  override readonly name = 'RngRangeError';
  constructor(readonly maxExclusive: number) {
    super(`nextInt bound must be an integer in [1, 2^32], got ${maxExclusive}`);
  }
}

export function assertDrawBound(maxExclusive: number): void {
  if (!Number.isInteger(maxExclusive) || maxExclusive < 1 || maxExclusive > MAX_DRAW_BOUND) {
    throw new RngRangeError(maxExclusive);
  }
}

import { randomInt } from 'node:crypto';
import { assertDrawBound, type Rng } from '@reelstream/game-domain';

/**
 * The production RNG: node:crypto's CSPRNG, whose `randomInt` already rejects-and-redraws to stay
 * unbiased over any bound. It lives here and not in the game domain, which holds no entropy source.
 */
export const cryptoRng: Rng = {
  nextInt(maxExclusive: number): number {
    assertDrawBound(maxExclusive);
    return randomInt(maxExclusive);
  },
};

import { exactBetStep, gcd } from './coins.js';
import type { InstantModel } from './instant/instant-model.js';
import type { SlotModel } from './slot/slot-model.js';

/** The math of one game; the catalog's `model` field names one by `id`. */
export type GameModel = SlotModel | InstantModel;

/**
 * The bet step (in minor units) at which every possible win of the model converts to money
 * exactly: all wins are multiples of the gcd g of the paytable's coin values, so a bet that is a
 * multiple of coinsPerBet / gcd(coinsPerBet, g) never rounds.
 */
export function exactBetStepMinor(model: GameModel): number {
  const pays =
    model.kind === 'slot'
      ? [
          ...Object.values(model.linePays).flatMap((byCount) => Object.values(byCount)),
          ...Object.values(model.scatterPays),
        ]
      : Object.values(model.profiles).flatMap((profile) => profile.segments.map((segment) => segment.multiplierCoins));
  const granularity = pays.filter((coins) => coins > 0).reduce((g, coins) => gcd(g, coins), 0);
  return granularity === 0 ? 1 : exactBetStep(model.coinsPerBet, granularity);
}

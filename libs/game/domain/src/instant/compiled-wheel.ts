import { compiledPerProfile } from '../compile-once.js';
import { ModelError } from '../model-error.js';
import { profiles, type Profile } from '../profile.js';
import { MAX_DRAW_BOUND } from '../rng/rng.js';
import type { InstantModel } from './instant-model.js';

/** A wheel profile as cumulative weights: draw d in [0, totalWeight) lands on the first segment whose upper bound exceeds d. */
export interface CompiledWheel {
  readonly model: InstantModel;
  readonly profile: Profile;
  readonly totalWeight: number;
  readonly upperBounds: Float64Array;
  readonly multiplierCoins: Int32Array;
  readonly coinsPerBet: number;
}

/** A wheel's tables for one profile: the model checked once, its tables built once per profile. */
export const compileWheel = compiledPerProfile(validateInstantModel, buildWheel);

function buildWheel(model: InstantModel, profile: Profile): CompiledWheel {
  const segments = model.profiles[profile].segments;
  const upperBounds = new Float64Array(segments.length);
  let total = 0;
  segments.forEach((segment, index) => (upperBounds[index] = total += segment.weight));
  return {
    model,
    profile,
    totalWeight: total,
    upperBounds,
    multiplierCoins: Int32Array.from(segments, (segment) => segment.multiplierCoins),
    coinsPerBet: model.coinsPerBet,
  };
}

/** Segment index for a draw in [0, totalWeight). */
export function segmentAt(wheel: CompiledWheel, draw: number): number {
  const bounds = wheel.upperBounds;
  let index = 0;
  while (draw >= (bounds[index] as number)) index++;
  return index;
}

function validateInstantModel(model: InstantModel): void {
  const fail = (problem: string): never => {
    throw new ModelError(model.id, problem);
  };
  if (!Number.isSafeInteger(model.coinsPerBet) || model.coinsPerBet < 1) fail('coinsPerBet must be a positive integer');
  for (const profile of profiles) {
    const { segments, targetRtp } = model.profiles[profile];
    if (!(targetRtp > 0)) fail(`${profile} target RTP must be positive`);
    if (segments.length === 0) fail(`${profile} wheel has no segments`);
    let total = 0;
    for (const { weight, multiplierCoins } of segments) {
      if (!Number.isSafeInteger(weight) || weight < 1) fail(`${profile} segment weights must be positive integers`);
      if (!Number.isSafeInteger(multiplierCoins) || multiplierCoins < 0)
        fail(`${profile} segment pays must be non-negative integers`);
      total += weight;
    }
    if (total > MAX_DRAW_BOUND) fail(`${profile} wheel weights exceed 2^32`);
  }
}

import type { Profile } from '../profile.js';

/**
 * A game whose bet and outcome are one step (settled with a single `betwin` callback): a wheel
 * of weighted segments, one draw picks a segment, the segment's multiplier is the win.
 * A segment pays `multiplierCoins` coins on a bet of `coinsPerBet` coins, so
 * win = floor(betMinor · multiplierCoins / coinsPerBet).
 */
export interface InstantModel {
  readonly kind: 'instant';
  readonly id: string;
  readonly name: string;
  readonly coinsPerBet: number;
  readonly profiles: Readonly<Record<Profile, WheelProfile>>;
}

interface WheelProfile {
  readonly targetRtp: number;
  readonly segments: readonly WheelSegment[];
}

interface WheelSegment {
  readonly multiplierCoins: number;
  readonly weight: number;
}

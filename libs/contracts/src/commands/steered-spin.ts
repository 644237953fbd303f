/**
 * A paid spin steered by the player's Regular Bonus Call (docs/adr/0012-regular-bonus-call-outcomes.md):
 * what the game-server asks of the player's bonus stream and what it chooses the spin's outcome
 * from. Decided in the game-server's own process with the ledger's decider (ADR 0006), so no bus
 * message carries it; the game's port and the bonus use case share these shapes.
 */

/** A paid round steered by the player's Regular Bonus Call, once its bet was taken. */
export interface SteeredSpinRequest {
  readonly operatorId: string;
  readonly playerId: string;
  readonly issueId: number;
  readonly roundId: number;
  readonly gameId: number;
  readonly betMinor: number;
  readonly currency: string;
}

/** What is left of the target when the spin's outcome is chosen, and the spin's number under the bonus. */
export interface SteeringView {
  /** What is left of the target: callAmount − wins delivered. */
  readonly targetLeftMinor: number;
  /** The number this spin has under the bonus call, from 1. */
  readonly spinNumber: number;
}

/** The outcome chosen for the spin: what the reels paid, the top-up to it, and the engine's record of the round. */
export interface SteeredChoice {
  readonly reelWinMinor: number;
  readonly topUpMinor: number;
  /** The engine's record of the round chosen. */
  readonly outcome: unknown;
}

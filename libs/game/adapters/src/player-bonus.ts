/**
 * The bonus rules a spin needs, decided in the game-server's own process on the player's
 * `playerBonus` stream (ADR 0006) with @reelstream/bonus-application's `FreeSpins` and
 * `RegularSpins`: the same decider, command handler, events and answers as the bonus-ledger's,
 * without a request/reply over the bus. Each command gets a commandId of its own, which seeds the ids
 * of the events it appends.
 */
import { FreeSpins, RegularSpins, type CommandOrigin } from '@reelstream/bonus-application';
import { ConcurrencyExhaustedError } from '@reelstream/platform-eventsourcing';
import type { PlayerBonusPort } from '@reelstream/game-application';
import type { Clock, EventStore, IdGenerator } from '@reelstream/platform-ports';

export interface PlayerBonusDeps {
  store: EventStore;
  clock: Clock;
  /** Draws each command's commandId and each settled spin's transactionId. */
  ids: IdGenerator;
}

export function playerBonus(deps: PlayerBonusDeps): PlayerBonusPort {
  const freeSpins = new FreeSpins(deps);
  const regularSpins = new RegularSpins(deps);
  const originOf = (operatorId: string, correlationId: string): CommandOrigin => ({
    commandId: String(deps.ids.next()),
    correlationId,
    operatorId,
  });
  return {
    active: (operatorId, playerId) => freeSpins.active(operatorId, playerId),
    startFreeSpin: (data, correlationId) => freeSpins.startSpin(data, originOf(data.operatorId, correlationId)),
    settleFreeSpin: (data, correlationId) => freeSpins.settleSpin(data, originOf(data.operatorId, correlationId)),
    // A steered spin of a Regular Bonus Call (ADR 0012): decided on the same stream.
    settleSteeredSpin: (request, choose, correlationId) =>
      regularSpins.settle(request, choose, originOf(request.operatorId, correlationId)),
    // No bus, no time limit: only a player's stream that kept changing past the retries leaves a call unanswered.
    isUnanswered: (error) => error instanceof ConcurrencyExhaustedError,
  };
}

/**
 * A use case that cannot go on (the player's request is refused, a dependency did not answer)
 * throws the domain's refusal wrapped in this error; the launch host's edge answers it as HTTP
 * with the catalogue's status. Anything else thrown is a fault of ours.
 */
import { gameRefusal, type GameRefusal } from '@reelstream/game-domain';
import { ReelstreamError, type ErrorCode } from '@reelstream/contracts';

export class GameRefusedError extends ReelstreamError {
  override name = 'GameRefusedError';
  constructor(readonly refusal: GameRefusal) {
    super(refusal.code, refusal.message, { details: refusal.details, retriable: refusal.retriable });
  }
}

export function refuse(...args: Parameters<typeof gameRefusal>): never {
  throw new GameRefusedError(gameRefusal(...args));
}

export function isRefused(error: unknown, code?: ErrorCode): error is GameRefusedError {
  return error instanceof GameRefusedError && (code === undefined || error.refusal.code === code);
}

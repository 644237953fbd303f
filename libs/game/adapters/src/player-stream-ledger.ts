/**
 * The bonus rules a spin needs, decided in the game-server's own process on the player's
 * `playerBonus` stream (ADR 0006) with @reelstream/bonus-application's `FreeSpins`: the same decider,
 * command handler, events and answers as the bonus-ledger's, without a request/reply over the bus.
 * Each call is a command as the ledger's client would send it (validated by the same contract,
 * with a commandId of its own that seeds the ids of the events it appends).
 */
import { FreeSpins, RegularSpins } from '@reelstream/bonus-application';
import { bonusRequestMessage, errorReply, isRefusal, okReply, type BonusReply } from '@reelstream/contracts';
import { ConcurrencyExhaustedError } from '@reelstream/platform-eventsourcing';
import type { LedgerPort, LedgerRequestType } from '@reelstream/game-application';
import type { Clock, EventStore, IdGenerator } from '@reelstream/platform-ports';

export interface PlayerStreamLedgerDeps {
  store: EventStore;
  clock: Clock;
  /** Draws each command's commandId and each settled spin's transactionId. */
  ids: IdGenerator;
}

export function playerStreamLedger(deps: PlayerStreamLedgerDeps): LedgerPort {
  const freeSpins = new FreeSpins(deps);
  const regularSpins = new RegularSpins(deps);
  async function call(type: LedgerRequestType, data: unknown, correlationId: string) {
    const message = bonusRequestMessage.parse({
      type,
      version: 1,
      data,
      metadata: {
        commandId: String(deps.ids.next()),
        correlationId,
        operatorId: (data as { operatorId?: unknown }).operatorId,
        issuedAt: deps.clock.now().toISOString(),
      },
    });
    switch (message.type) {
      case 'GetActiveBonus': {
        const { operatorId, playerId } = message.data;
        return okReply({ bonus: await freeSpins.active(operatorId, playerId) });
      }
      case 'StartFreeSpin':
        return freeSpins.startSpin(message);
      case 'SettleFreeSpin':
        return freeSpins.settleSpin(message);
      default:
        throw new Error(`${message.type} is the bonus-ledger's, not a spin's`);
    }
  }
  return {
    // One implementation for the three request types; each answer is the reply of the type asked.
    call: call as <Type extends LedgerRequestType>(
      type: Type,
      data: Parameters<LedgerPort['call']>[1],
      correlationId: string,
    ) => Promise<BonusReply<Type>>,
    // No bus, no time limit: only a player's stream that kept changing past the retries leaves a call unanswered.
    isTimeout: (error) => error instanceof ConcurrencyExhaustedError,
    // A steered spin of a Regular Bonus Call (ADR 0012): decided on the same stream, with a commandId of its own.
    async settleSteeredSpin(request, choose, correlationId) {
      const origin = { commandId: String(deps.ids.next()), correlationId, operatorId: request.operatorId };
      const decided = await regularSpins.settle(request, choose, origin);
      if (isRefusal(decided)) return errorReply(decided.code, decided.message);
      return okReply(decided);
    },
  };
}

import type { Rng } from '@reelstream/game-domain';
import type { Clock, IdGenerator } from '@reelstream/platform-ports';
import type { GameTable } from '../game-table.js';
import type { GameLog, PlayerBonusPort, WalletPort } from '../ports.js';
import type { BalanceBook } from '../sessions/balance-book.js';
import type { RoundStreams } from './round-streams.js';

/** Rounds being worked on in this process: the resolver leaves them to whoever holds them. */
export class InFlightRounds {
  private readonly rounds = new Set<number>();

  has(roundId: number): boolean {
    return this.rounds.has(roundId);
  }

  async hold<T>(roundId: number, work: () => Promise<T>): Promise<T> {
    this.rounds.add(roundId);
    try {
      return await work();
    } finally {
      this.rounds.delete(roundId);
    }
  }
}

/** Everything a round needs, passed in (no module state): the all-in-one platform runs one per service. */
export interface RoundDeps {
  readonly rounds: RoundStreams;
  readonly wallet: WalletPort;
  readonly bonus: PlayerBonusPort;
  readonly balances: BalanceBook;
  readonly table: GameTable;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: GameLog;
  readonly inFlight: InFlightRounds;
}

/**
 * Looks up the wallet's answers to the player's earlier wins before a spin answers (a read of the
 * log). The round is settled by then: a failed read only leaves the balance shown as it was.
 */
export async function refreshBalance(
  deps: Pick<RoundDeps, 'balances' | 'logger'>,
  owner: { readonly operatorId: string; readonly playerId: string; readonly currency: string },
): Promise<void> {
  try {
    await deps.balances.shown(owner.operatorId, owner.playerId, owner.currency);
  } catch (error) {
    deps.logger.warn('could not read the wallet answers to earlier wins; the spin shows the balance known', {
      operatorId: owner.operatorId,
      error,
    });
  }
}

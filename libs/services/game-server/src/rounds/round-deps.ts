import type { Rng } from '@reelstream/game-domain';
import type { Clock, IdGenerator } from '@reelstream/ports';
import type { Logger } from '@reelstream/telemetry';
import type { GameTable } from '../catalog/game-table.js';
import type { BonusLedgerClient } from '@reelstream/bonus-client';
import type { BalanceBook } from '../sessions/balance-book.js';
import type { WalletClient } from '../wallet/wallet-client.js';
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
  readonly wallet: WalletClient;
  readonly ledger: BonusLedgerClient;
  readonly balances: BalanceBook;
  readonly table: GameTable;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  readonly inFlight: InFlightRounds;
}

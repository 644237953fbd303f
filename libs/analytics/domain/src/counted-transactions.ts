/**
 * How a report counts a transaction's money: once, at the wallet answer that moved it (a second
 * answer changes nothing), reverted once when its cancel succeeds (a cancel of a transaction never
 * counted marks it, so a later answer counts nothing), and forgotten when the log has not named it
 * for the horizon, as the log index forgets it.
 */
import type { WalletRequest } from '@reelstream/contracts';
import type { LogIndex } from './log-index.js';
import { RecentMap } from './recent-map.js';

/** A `WalletSucceeded`'s data: the command it answers, when it says, and when. */
interface WalletAnswer {
  command?: string | undefined;
  at: string;
}

export class CountedTransactions<Counted> {
  private readonly counted: RecentMap<string, Counted | 'canceled'>;

  /** `revert` takes back what was counted for a transaction whose cancel succeeded. */
  constructor(
    horizonMs: number,
    private readonly revert: (counted: Counted) => void,
  ) {
    this.counted = new RecentMap(horizonMs);
  }

  advance(nowMs: number): void {
    this.counted.advance(nowMs);
  }

  /**
   * A wallet answer on a transaction's stream: `count` counts its request's money (at the answer's
   * time) and returns what to revert on cancel, or `undefined` when the report counts none of it.
   * Nothing is counted for an answer to another command, a transaction already counted or canceled,
   * or a streamer's round. False when the index does not hold the transaction (its money is not counted).
   */
  answered(
    streamId: string,
    answer: WalletAnswer,
    index: LogIndex,
    count: (request: WalletRequest, atMs: number) => Counted | undefined,
  ): boolean {
    const request = index.transactions.get(streamId);
    if (!request) return false;
    if (answer.command !== undefined && answer.command !== request.command) return true;
    if (this.counted.has(streamId) || index.isStreamerRound(request.roundId)) return true;
    const counted = count(request, Date.parse(answer.at));
    if (counted !== undefined) this.counted.set(streamId, counted);
    return true;
  }

  /** A cancel reverts its transaction where it was counted; a cancel of a bet never accepted reverts nothing. */
  canceled(streamId: string): void {
    const counted = this.counted.get(streamId);
    this.counted.set(streamId, 'canceled');
    if (counted === undefined || counted === 'canceled') return;
    this.revert(counted);
  }
}

/**
 * The wins parked after their retries (D11) that are still parked: found from the event log,
 * the source of truth, so a re-driven one (or one whose re-drive is under way) is not listed.
 */
import { streamPrefix, StreamCategories, parseStreamId, type WalletDeadLetter } from '@reelstream/contracts';
import type { EventStore, Position } from '@reelstream/ports';
import { deadLetterOf } from '@reelstream/wallet-domain';
import { WalletTxRepository } from './wallet-tx-repository.js';

export interface DeadLetterFilter {
  operatorId?: string;
  /** Only wins dead-lettered at or after this time. */
  since?: Date;
}

const PAGE = 1_000;

export async function findDeadLetteredWins(store: EventStore, filter: DeadLetterFilter = {}): Promise<WalletDeadLetter[]> {
  const candidates = new Set<number>();
  let from: Position | undefined;
  for (;;) {
    const page = await store.readAll({ maxCount: PAGE, filter: { streamPrefixes: [streamPrefix(StreamCategories.walletTx)] }, ...(from === undefined ? {} : { fromPosition: from }) });
    for (const event of page) {
      if (event.type !== 'WinDeadLettered') continue;
      const parsed = parseStreamId(event.streamId);
      if (parsed?.category === 'walletTx') candidates.add(parsed.transactionId);
    }
    const last = page.at(-1);
    if (!last || page.length < PAGE) break;
    from = last.position;
  }
  const records = new WalletTxRepository(store);
  const found: WalletDeadLetter[] = [];
  for (const transactionId of candidates) {
    const letter = deadLetterOf((await records.load(transactionId)).state);
    if (!letter) continue;
    if (filter.operatorId !== undefined && letter.operatorId !== filter.operatorId) continue;
    if (filter.since !== undefined && Date.parse(letter.deadLetteredAt) < filter.since.getTime()) continue;
    found.push(letter);
  }
  return found.sort((a, b) => a.deadLetteredAt.localeCompare(b.deadLetteredAt) || a.transactionId - b.transactionId);
}

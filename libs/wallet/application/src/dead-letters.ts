/**
 * The wins that were not delivered and are still dead-lettered (D11): found from the
 * event log, the source of truth, so a re-driven one (or one whose re-drive is under way) is not
 * listed. Besides a stream's own win, a stream may hold dead letters of wins that named its
 * transactionId without being its request; a stream this code cannot fold lists the dead letters
 * written into it as they are.
 */
import {
  parseStoredEvent,
  streamPrefix,
  StreamCategories,
  parseStreamId,
  walletDeadLetter,
  walletTxStream,
  type WalletDeadLetter,
} from '@reelstream/contracts';
import type { EventStore, Position } from '@reelstream/platform-ports';
import { conflictDeadLettersOf, deadLetterOf } from '@reelstream/wallet-domain';
import { isDeterministicFailure } from './failures.js';
import { WalletTxRepository } from './wallet-tx-repository.js';

export interface DeadLetterFilter {
  operatorId?: string;
  /** Only wins dead-lettered at or after this time. */
  since?: Date;
}

const PAGE = 1_000;

export async function findDeadLetteredWins(
  store: EventStore,
  filter: DeadLetterFilter = {},
): Promise<WalletDeadLetter[]> {
  const candidates = new Set<number>();
  let from: Position | undefined;
  for (;;) {
    const page = await store.readAll({
      maxCount: PAGE,
      filter: { streamPrefixes: [streamPrefix(StreamCategories.walletTx)] },
      ...(from === undefined ? {} : { fromPosition: from }),
    });
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
    for (const letter of await lettersOf(store, records, transactionId)) {
      if (filter.operatorId !== undefined && letter.operatorId !== filter.operatorId) continue;
      if (filter.since !== undefined && Date.parse(letter.deadLetteredAt) < filter.since.getTime()) continue;
      found.push(letter);
    }
  }
  return found.sort((a, b) => a.deadLetteredAt.localeCompare(b.deadLetteredAt) || a.transactionId - b.transactionId);
}

/** The dead letters a transaction's stream holds now (its own win's, and those of wins that named its transactionId). */
export function standingDeadLetters(store: EventStore, transactionId: number): Promise<WalletDeadLetter[]> {
  return lettersOf(store, new WalletTxRepository(store), transactionId);
}

async function lettersOf(
  store: EventStore,
  records: WalletTxRepository,
  transactionId: number,
): Promise<WalletDeadLetter[]> {
  try {
    const { state } = await records.load(transactionId);
    const own = deadLetterOf(state);
    return [...(own ? [own] : []), ...conflictDeadLettersOf(state)];
  } catch (error) {
    if (!isDeterministicFailure(error)) throw error;
    const letters: WalletDeadLetter[] = [];
    for (const recorded of await store.readStream(walletTxStream(transactionId))) {
      if (recorded.type !== 'WinDeadLettered') continue;
      const event = parseStoredEvent(recorded);
      if (event.type !== 'WinDeadLettered' || !event.data.request) continue;
      const { request, lastError, at, attempts, reason } = event.data;
      letters.push(
        walletDeadLetter.parse({
          transactionId,
          operatorId: request.operatorId,
          playerId: request.playerId,
          request,
          reason: reason ?? 'decision_refused',
          attempts,
          lastError,
          deadLetteredAt: at,
        }),
      );
    }
    return letters;
  }
}

/**
 * A checkpoint that never passes an open round. The round outbox keeps the rounds it saw start
 * and not end in memory; after a restart it must see them again, so the checkpoint it stores is
 * the position handled, held back to just before the earliest RoundStarted still open. Replaying
 * from there repeats some wins, which the dispatcher de-duplicates by transactionId.
 */
import type { CheckpointStore, EventStore, Position } from '@reelstream/platform-ports';

export interface HoldBack {
  /**
   * Where the earliest open round may be replayed from: the position before its RoundStarted,
   * `'start'` when nothing came before it, undefined when no round is open.
   */
  holdAt(): Position | 'start' | undefined;
}

export function heldCheckpoints(inner: CheckpointStore, store: EventStore, holdBack: HoldBack): CheckpointStore {
  return {
    load: (name) => inner.load(name),
    async store(name, position) {
      const held = holdBack.holdAt();
      if (held === 'start') return;
      const safe = held !== undefined && store.comparePositions(held, position) < 0 ? held : position;
      await inner.store(name, safe);
    },
  };
}

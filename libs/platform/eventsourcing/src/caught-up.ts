import type { EventStore, Position, StreamFilter } from '@reelstream/platform-ports';
import type { CatchUpRunner } from './catch-up.js';

/**
 * Resolves once `runner` has handled the newest event `filter` passes as the store stands now (at
 * once when there is none); rejects with `lagError(position)` when that takes longer than `timeoutMs`.
 * How a read model answers only when it shows every write made before the question.
 */
export async function caughtUpWith(
  store: EventStore,
  runner: Pick<CatchUpRunner, 'waitFor'>,
  filter: StreamFilter,
  timeoutMs: number,
  lagError: (position: Position) => Error,
): Promise<void> {
  // One indexed read per category: the newest event the read model could show.
  const [last] = await store.readAll({ direction: 'backwards', maxCount: 1, filter });
  if (!last) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(lagError(last.position)), timeoutMs);
  });
  try {
    await Promise.race([runner.waitFor(last.position), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

import type { EventStore, Position, RecordedEvent, StreamFilter } from '@reelstream/platform-ports';
import { anEvent } from './harness.js';

export interface PositionGapRun {
  /** Event ids in the order their appends returned. */
  written: string[];
  /** What a reader paging $all by position (`readAll` from the last position it saw) got. */
  paged: RecordedEvent[];
  /** What a subscription from 'start' delivered. */
  subscribed: RecordedEvent[];
}

export interface PositionGapOptions {
  /** The clients that append at once (separate connections), and the one that reads. */
  writers: readonly EventStore[];
  reader: EventStore;
  /** Stream-id prefix of the run; the readers read $all through it. */
  prefix: string;
  streamsPerWriter: number;
  appendsPerStream: number;
  /** How long the readers may take to reach the last position once the appends are done. */
  settleMs?: number;
}

/**
 * Appends from several clients at once, on many streams, while one reader pages $all by position
 * and a subscription follows it: the interleaving in which a naive store hands out positions 10
 * and 11 to two transactions, commits 11 first and lets a reader pass 11 before 10 is visible.
 * Each reader stops once it has every event or has reached the last position any append returned:
 * every event lies at or before it, so an event still missing then was skipped for good.
 */
export async function catchUpWhileAppending(options: PositionGapOptions): Promise<PositionGapRun> {
  const { reader, prefix } = options;
  const filter: StreamFilter = { streamPrefixes: [prefix] };
  let appending = true;
  let total = Number.POSITIVE_INFINITY;
  let lastPosition: Position | undefined = undefined;
  let stopped = false;
  const reached = (position: Position | undefined) =>
    !appending &&
    position !== undefined &&
    lastPosition !== undefined &&
    reader.comparePositions(position, lastPosition) >= 0;

  const paged: RecordedEvent[] = [];
  const pager = (async () => {
    let from: Position | undefined;
    while (!stopped) {
      const page = await reader.readAll({ filter, maxCount: 50, ...(from ? { fromPosition: from } : {}) });
      paged.push(...page);
      from = page.at(-1)?.position ?? from;
      if (paged.length >= total || (page.length === 0 && reached(from))) return;
      if (page.length === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  })();

  const subscribed: RecordedEvent[] = [];
  const subscription = reader.subscribeToAll({ from: 'start', filter });
  const follower = (async () => {
    let seen: Position | undefined;
    for await (const item of subscription.withCheckpoints()) {
      if (item.kind === 'event') subscribed.push(item.event);
      seen = item.kind === 'event' ? item.event.position : item.position;
      if (subscribed.length >= total || reached(seen)) return;
    }
  })();

  const { written, positions } = await appendFromEveryWriter(options);
  total = written.length;
  lastPosition = positions.reduce((a, b) => (reader.comparePositions(a, b) >= 0 ? a : b));
  appending = false;

  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, options.settleMs ?? 30_000)));
  try {
    await Promise.race([Promise.all([pager, follower]), deadline]);
  } finally {
    clearTimeout(timer);
    stopped = true;
    await subscription.close();
    await pager.catch(() => undefined);
  }
  return { written, paged, subscribed };
}

/** Every writer appends to its streams at once: the event ids in the order their appends returned, and their positions. */
async function appendFromEveryWriter(
  options: PositionGapOptions,
): Promise<{ written: string[]; positions: Position[] }> {
  const written: string[] = [];
  const positions: Position[] = [];
  await Promise.all(
    options.writers.flatMap((store, w) =>
      Array.from({ length: options.streamsPerWriter }, async (_, s) => {
        const stream = `${options.prefix}w${w}s${s}`;
        let expected: number | 'no_stream' = 'no_stream';
        for (let i = 0; i < options.appendsPerStream; i++) {
          const batch = i % 3 === 2 ? [anEvent(), anEvent(), anEvent()] : [anEvent()];
          const result = await store.append(stream, batch, { expectedRevision: expected });
          expected = result.nextExpectedRevision;
          written.push(...batch.map((event) => event.eventId));
          positions.push(result.position);
        }
      }),
    ),
  );
  return { written, positions };
}

/** The ids of `written` that `read` lacks, and those it holds more than once. */
export function gapsOf(
  written: readonly string[],
  read: readonly RecordedEvent[],
): { missing: string[]; doubled: string[] } {
  const counts = new Map<string, number>();
  for (const event of read) counts.set(event.eventId, (counts.get(event.eventId) ?? 0) + 1);
  return {
    missing: written.filter((id) => !counts.has(id)),
    doubled: [...counts].filter(([, n]) => n > 1).map(([id]) => id),
  };
}

import type { AllStreamResolvedEvent, ReadPosition } from '@eventstore/db-client';
import type { Direction, ReadAllOptions, RecordedEvent } from '@reelstream/platform-ports';
import { decodePosition, isPast, type EsdbPosition } from './position.js';
import { allPositionOf, toVisibleAllEvent } from './recorded-event.js';

/** Reads one page of `$all`: up to `maxCount` events from `from` in `direction`, as the client does. */
export type ReadAllPage = (
  from: ReadPosition,
  direction: Direction,
  maxCount: number,
) => Promise<AllStreamResolvedEvent[]>;

const READ_ALL_MAX_PAGE = 512;

/**
 * The port's `readAll` on top of pages of the client's `readAll`.
 *
 * The port's `fromPosition` is exclusive; the server's is inclusive when reading forwards (it returns the
 * event at that position) and exclusive backwards. Every page therefore drops what is not strictly past
 * the last position seen, which is right for either behaviour. The pages come filtered by the server
 * (`filtered-read.ts`); system events, checkpoints and events outside the prefix filter are dropped here
 * again, and paging (growing pages) continues until `maxCount` visible events are found or `$all` is
 * exhausted.
 */
export async function readAllVisible(readPage: ReadAllPage, options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
  const direction = options.direction ?? 'forwards';
  const wanted = options.maxCount ?? Number.POSITIVE_INFINITY;
  if (wanted <= 0) return [];
  let bound: EsdbPosition | undefined =
    options.fromPosition === undefined ? undefined : decodePosition(options.fromPosition);
  let cursor: ReadPosition = bound ?? (direction === 'forwards' ? 'start' : 'end');
  const found: RecordedEvent[] = [];
  // Small reads (the head of `$all`) stay small; pages grow when hidden events have to be skipped.
  let pageSize = Math.min(READ_ALL_MAX_PAGE, wanted + 8);

  for (;;) {
    const page = await readPage(cursor, direction, pageSize);
    let advanced = false;
    for (const resolved of page) {
      const position = allPositionOf(resolved);
      if (!position) continue;
      if (bound && !isPast(position, bound, direction)) continue;
      bound = position;
      advanced = true;
      const event = toVisibleAllEvent(resolved, options.filter);
      if (!event) continue;
      found.push(event);
      if (found.length >= wanted) return found;
    }
    // A short page is not taken as the end: a filtered read may stop early on the server's side, so
    // only a page that brings nothing new ends the read (one more round trip when $all runs out).
    if (page.length === 0 || !advanced || !bound) return found;
    cursor = bound;
    pageSize = Math.min(READ_ALL_MAX_PAGE, pageSize * 2);
  }
}

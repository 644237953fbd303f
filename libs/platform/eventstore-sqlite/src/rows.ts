import type { EventMetadata, RecordedEvent } from '@reelstream/platform-ports';
import { CorruptEventError } from './errors.js';

/** The columns every read selects, in this order. */
export const eventColumns = 'position, stream_id, revision, event_id, type, data, metadata, recorded_at';

/**
 * A row as the read statements return it: `raw` mode, an array in `eventColumns` order. Bulk
 * reads (replays, catch-up) turn hundreds of thousands of rows into events; an array per row
 * costs about half of what a keyed object does in better-sqlite3.
 */
export type EventRow = readonly [
  position: number,
  streamId: string,
  revision: number,
  eventId: string,
  type: string,
  data: string,
  metadata: string,
  recordedAt: string,
];

/**
 * Turns a stored row back into an event. The table is STRICT, so column types hold; the JSON
 * inside them may not (the file can be edited by hand), so it is parsed with a clear error.
 */
export function toRecordedEvent(row: EventRow): RecordedEvent {
  const position = String(row[0]);
  return {
    streamId: row[1],
    revision: row[2],
    position,
    eventId: row[3],
    type: row[4],
    data: parseJson(position, 'data', row[5]),
    metadata: parseMetadata(position, row[6]),
    recordedAt: row[7],
  };
}

function parseJson(position: string, column: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CorruptEventError(
      position,
      `${column} is not JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

function parseMetadata(position: string, text: string): EventMetadata {
  const value = parseJson(position, 'metadata', text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CorruptEventError(position, 'metadata is not a JSON object');
  }
  return value as EventMetadata;
}

import type { EventMetadata, RecordedEvent } from '@reelstream/ports';
import { CorruptEventError } from './errors.js';

/** The columns every read selects, in this order. */
export const eventColumns = 'position, stream_id, revision, event_id, type, data, metadata, recorded_at';

export interface EventRow {
  position: number;
  stream_id: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
}

/**
 * Turns a stored row back into an event. The table is STRICT, so column types hold; the JSON
 * inside them may not (the file can be edited by hand), so it is parsed with a clear error.
 */
export function toRecordedEvent(row: EventRow): RecordedEvent {
  const position = String(row.position);
  return {
    streamId: row.stream_id,
    revision: row.revision,
    position,
    eventId: row.event_id,
    type: row.type,
    data: parseJson(position, 'data', row.data),
    metadata: parseMetadata(position, row.metadata),
    recordedAt: row.recorded_at,
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

import type { EventMetadata, RecordedEvent } from '@reelstream/platform-ports';
import { formatPostgresPosition } from './positions.js';

/**
 * The columns every event read selects, named as `EventRow` has them. The numbers come as text, under
 * their own names: an ORDER BY naming them bare sorts that text ("10" before "9"), so every ORDER BY
 * names the table's columns (`es_events.position`).
 */
export const EVENT_COLUMNS = `transaction_id::text AS transaction_id, position::text AS position, stream_id,
  revision::text AS revision, event_id::text AS event_id, type, data, metadata, recorded_at`;

/** A row as the `pg` client returns it: bigints as text, jsonb parsed, timestamptz as a Date. */
export interface EventRow {
  transaction_id: string;
  position: string;
  stream_id: string;
  revision: string;
  event_id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata | null;
  recorded_at: Date;
}

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    streamId: row.stream_id,
    revision: Number(row.revision),
    position: formatPostgresPosition(row.transaction_id, row.position),
    eventId: row.event_id,
    type: row.type,
    data: row.data,
    metadata: row.metadata ?? {},
    recordedAt: row.recorded_at.toISOString(),
  };
}

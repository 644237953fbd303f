import type { AllStreamResolvedEvent, ResolvedEvent } from '@eventstore/db-client';
import type { EventMetadata, RecordedEvent, StreamFilter } from '@reelstream/platform-ports';
import { toPortRevision } from './expected-revision.js';
import { encodePosition, isUnknownPosition, type EsdbPosition } from './position.js';
import { isVisibleInAll } from './stream-names.js';
import { ReelstreamError } from '@reelstream/contracts';

/** Not retriable: a server too old for this code answers the same way every time. */
export class MissingPositionError extends ReelstreamError {
  override readonly name = 'MissingPositionError';
  constructor(
    readonly streamId: string,
    readonly revision: bigint,
  ) {
    super(
      'INTERNAL',
      `EventStoreDB returned event ${streamId}@${revision} without its $all position; ` +
        'stream reads carry positions from server 22.6 on (docker/compose.yml pins a newer one)',
      { retriable: false },
    );
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/**
 * The client hands metadata over already parsed when it is JSON, as bytes when it is not, and as
 * `undefined` when there is none. The port's metadata is always an object: anything else reads as `{}`.
 */
export function parseMetadata(raw: unknown): EventMetadata {
  if (isPlainObject(raw)) return raw;
  if (raw instanceof Uint8Array && raw.length > 0) {
    try {
      const parsed: unknown = JSON.parse(Buffer.from(raw).toString('utf8'));
      if (isPlainObject(parsed)) return parsed;
    } catch {
      return {};
    }
  }
  return {};
}

/** `$all` reads always carry the position; stream reads do from server 22.6 on. */
function positionOf(event: { streamId: string; revision: bigint; position?: EsdbPosition }): EsdbPosition {
  const position = event.position;
  if (!position || isUnknownPosition(position)) throw new MissingPositionError(event.streamId, event.revision);
  return position;
}

/** Maps one event of a stream read; `undefined` when the server sent no event (an unresolved link). */
export function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event) return undefined;
  return {
    streamId: event.streamId,
    revision: toPortRevision(event.revision),
    position: encodePosition(positionOf(event)),
    eventId: event.id,
    type: event.type,
    data: event.data,
    metadata: parseMetadata(event.metadata),
    recordedAt: event.created.toISOString(),
  };
}

/** The `$all` position of a resolved event, visible to the port or not (readers page past hidden ones too). */
export function allPositionOf(resolved: AllStreamResolvedEvent): EsdbPosition | undefined {
  const event = resolved.event ?? resolved.link;
  return event?.position;
}

/** Maps one event of a `$all` read or subscription; `undefined` for what the port's readers must not see. */
export function toVisibleAllEvent(resolved: AllStreamResolvedEvent, filter?: StreamFilter): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event || !isVisibleInAll(event.streamId, event.type, filter)) return undefined;
  return toRecordedEvent(resolved);
}

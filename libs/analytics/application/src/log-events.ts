/** A stored event as the folds read it: data parsed and upcast by the contracts (old versions read too). */
import {
  parseCampaignEvent,
  parseCampaignStream,
  currentSchemaVersion,
  isEventType,
  parseStoredEvent,
  parseStreamId,
  ReelstreamError,
  type DomainEvent,
  type StreamCategory,
} from '@reelstream/contracts';
import type { CampaignLogEvent, LogEvent } from '@reelstream/analytics-domain';
import type { RecordedEvent } from '@reelstream/platform-ports';

/** An event the contracts do not accept: the log is not what the platform wrote. */
/** Not retriable: the stored event reads the same way every time. */
export class UnreadableEventError extends ReelstreamError {
  override readonly name = 'UnreadableEventError';
  constructor(
    readonly position: string,
    readonly streamId: string,
    cause: unknown,
  ) {
    super(
      'EVENT_NOT_READABLE',
      `event at position ${position} (${streamId}) cannot be read: ${cause instanceof Error ? cause.message : String(cause)}`,
      { retriable: false },
    );
  }
}

const categoryCache = new Map<string, StreamCategory | undefined>();

/** The stream's category; cached by prefix since a log has a handful of them. */
function categoryOf(streamId: string): StreamCategory | undefined {
  const prefix = streamId.slice(0, streamId.indexOf('-') + 1);
  if (categoryCache.has(prefix)) return categoryCache.get(prefix);
  const category = parseStreamId(streamId)?.category;
  if (category !== undefined) categoryCache.set(prefix, category);
  return category;
}

/**
 * How much to check: `trusted` takes an event of the current schema version as written (every
 * writer validated it against its contract before appending: eventToAppend) and parses only older
 * versions, which need upcasting; `strict` checks every event against its contract (`--strict`)
 * and that no id was used twice (an event that opens its stream is its first): four to five
 * times slower, for a file that may have been edited by hand or made by a generator.
 */
export type Validation = 'trusted' | 'strict';

const currentVersions = new Map<string, number | undefined>();

/** The type's current schema version, undefined for a type the contracts do not know; a lookup per event, so cached. */
function currentVersionOf(type: string): number | undefined {
  let version = currentVersions.get(type);
  if (version === undefined && !currentVersions.has(type)) {
    version = isEventType(type) ? currentSchemaVersion(type) : undefined;
    currentVersions.set(type, version);
  }
  return version;
}

/**
 * The events that open their stream: a second one in a stream (at a revision other than 0) means
 * an id was used twice (two rounds with one roundId, two transactions with one transactionId, two
 * launches with one token), which the platform never writes.
 */
const STREAM_OPENERS: ReadonlySet<string> = new Set(['GameSessionStarted', 'RoundStarted', 'WalletRequested']);

function checkOpensItsStream(recorded: RecordedEvent): void {
  if (STREAM_OPENERS.has(recorded.type) && recorded.revision !== 0)
    throw new UnreadableEventError(
      recorded.position,
      recorded.streamId,
      `${recorded.type} opens its stream but is at revision ${recorded.revision}: an id was used twice`,
    );
}

function domainEventOf(recorded: RecordedEvent, validation: Validation): DomainEvent {
  if (validation === 'strict') checkOpensItsStream(recorded);
  const version = recorded.metadata.schemaVersion;
  if (
    validation === 'trusted' &&
    (typeof version === 'number' ? version : 1) === currentVersionOf(recorded.type) &&
    typeof recorded.data === 'object' &&
    recorded.data !== null
  )
    return { type: recorded.type, data: recorded.data } as DomainEvent;
  try {
    return parseStoredEvent(recorded);
  } catch (error) {
    throw new UnreadableEventError(recorded.position, recorded.streamId, error);
  }
}

/** A LogEvent whose instant is parsed on first use: only time filters read it, and a full replay has none. */
class ReadLogEvent implements LogEvent {
  private epochMs: number | undefined;

  constructor(
    readonly position: string,
    readonly streamId: string,
    readonly category: StreamCategory | undefined,
    readonly occurredAt: string,
    readonly operatorId: string | undefined,
    readonly event: DomainEvent,
  ) {}

  get occurredAtMs(): number {
    return (this.epochMs ??= Date.parse(this.occurredAt));
  }
}

export function toLogEvent(recorded: RecordedEvent, validation: Validation = 'trusted'): LogEvent {
  const event = domainEventOf(recorded, validation);
  const { occurredAt: stamped, operatorId } = recorded.metadata;
  return new ReadLogEvent(
    recorded.position,
    recorded.streamId,
    categoryOf(recorded.streamId),
    typeof stamped === 'string' ? stamped : recorded.recordedAt,
    typeof operatorId === 'string' ? operatorId : undefined,
    event,
  );
}

/** A campaign stream's event, validated by its contract (campaign events are few: always parsed). */
export function toCampaignLogEvent(recorded: RecordedEvent): CampaignLogEvent {
  const names = parseCampaignStream(recorded.streamId);
  if (!names) throw new UnreadableEventError(recorded.position, recorded.streamId, 'not a campaign stream id');
  let event;
  try {
    event = parseCampaignEvent(recorded);
  } catch (error) {
    throw new UnreadableEventError(recorded.position, recorded.streamId, error);
  }
  const stamped = recorded.metadata.occurredAt;
  const occurredAt = typeof stamped === 'string' ? stamped : recorded.recordedAt;
  return {
    position: recorded.position,
    streamId: recorded.streamId,
    occurredAt,
    occurredAtMs: Date.parse(occurredAt),
    operatorId: names.operatorId,
    campaignId: names.campaignId,
    event,
  };
}

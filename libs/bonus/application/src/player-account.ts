/** Reads a `playerBonus` stream and folds it into the player's bonus account. */
import { bonusDecider, type PlayerBonusAccount } from '@reelstream/bonus-domain';
import { parseStoredEvent, ReelstreamError, StreamEventTypes, type PlayerBonusEvent } from '@reelstream/contracts';
import { loadState } from '@reelstream/platform-eventsourcing';
import type { EventStore, RecordedEvent, StreamRevision } from '@reelstream/platform-ports';

export interface LoadedAccount {
  account: PlayerBonusAccount;
  /** Revision of the stream's last event; undefined when the stream does not exist. */
  revision: StreamRevision | undefined;
}

const playerBonusTypes: ReadonlySet<string> = new Set(StreamEventTypes.playerBonus);

/** Not retriable: the stored event stays what it is. */
class UnexpectedEventError extends ReelstreamError {
  override readonly name = 'UnexpectedEventError';
  constructor(
    readonly streamId: string,
    readonly type: string,
  ) {
    super('EVENT_NOT_READABLE', `stream ${streamId} holds a ${type} event, which is not a bonus event`, {
      retriable: false,
    });
  }
}

/** A stored event of a `playerBonus` stream, validated and upcast. */
export function toPlayerBonusEvent(
  recorded: Pick<RecordedEvent, 'streamId' | 'type' | 'data' | 'metadata'>,
): PlayerBonusEvent {
  if (!playerBonusTypes.has(recorded.type)) throw new UnexpectedEventError(recorded.streamId, recorded.type);
  return parseStoredEvent(recorded) as PlayerBonusEvent;
}

export async function loadPlayerAccount(store: EventStore, streamId: string): Promise<LoadedAccount> {
  const { state, revision } = await loadState(store, streamId, bonusDecider, toPlayerBonusEvent);
  return { account: state, revision };
}

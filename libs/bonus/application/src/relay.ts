/**
 * The ledger's outbox relay (docs/architecture.md, "The outboxes"): the event store is the outbox. A checkpointed
 * catch-up subscription on the `playerBonus` streams publishes every event to `bonus.events`
 * and, for each FreeSpinSettled, the spin's `win` request (D10: bonusId = issueId, amount may be
 * 0, the transactionId fixed in the event) to `wallet.requests`, and for each state change a bonus
 * webhook to `bonus.webhooks` (docs/adr/0008-bonus-webhooks.md). A crash before the checkpoint
 * publishes again: at least once, with the same ids, which consumers de-duplicate.
 */
import {
  bonusEventMessage,
  bonusWebhookKey,
  bonusWebhookOf,
  Headers,
  parseStreamId,
  playerKey,
  Topics,
  type BonusCallRegistered,
  type PlayerBonusEvent,
} from '@reelstream/contracts';
import { freeSpinWinRequest, type WinRegistration } from '@reelstream/bonus-domain';
import { startCatchUp, type CatchUpRunner, type StreamShard } from '@reelstream/platform-eventsourcing';
import {
  type CheckpointStore,
  type EventStore,
  type MessageBus,
  type OutgoingMessage,
  type RecordedEvent,
} from '@reelstream/platform-ports';
import { traceHeadersOf } from '@reelstream/platform-ports';
import { parsePlayerBonusEvent } from './streams.js';
import { LEDGER_RETRY_DELAY_MS, PLAYER_BONUS_FILTER } from './projection-runner.js';

export interface BonusRelayOptions {
  store: EventStore;
  checkpoints: CheckpointStore;
  bus: MessageBus;
  /** Checkpoint name. Default `bonus-ledger.relay`. */
  name?: string;
  /** Only the players of this shard (a relay split into shards, docs/adr/0045-outbox-and-relay-split-into-shards.md). Default: every player. */
  shard?: StreamShard;
  /**
   * False once this replica may no longer be the only relay (its lease lapsed): the batch is not
   * sent, and retried until the relay is stopped (docs/adr/0005-leases-and-fencing.md).
   */
  held?: () => boolean;
  /**
   * Whether an operator takes bonus webhooks (has a `webhookUrl`): the webhooks of one that does
   * not are not published at all. Default: every operator's.
   */
  takesWebhooks?: (operatorId: string) => boolean;
  /**
   * Each event of a batch once the batch is published (the bonus state-change counter). A relay
   * that stops before its checkpoint moves publishes those events again, and calls this again.
   */
  onRelayed?: (operatorId: string, event: PlayerBonusEvent) => void;
  onError?: (error: unknown) => void;
  retryDelayMs?: number;
}

type Registration = WinRegistration;

/** The messages one stored event becomes, and what to do once they are published. */
interface RelayedMessages {
  event: OutgoingMessage;
  win: OutgoingMessage | undefined;
  webhook: OutgoingMessage | undefined;
  relayed: () => void;
}

/** The relay's checkpoint name unless told otherwise (the lag gauge reads it too). */
export const BONUS_RELAY_CHECKPOINT = 'bonus-ledger.relay';

/** Registrations looked up for wins, by stream and issueId: one stream read per bonus call, not per spin. */
class RegistrationCache {
  private readonly entries = new Map<number, Registration>();
  constructor(
    private readonly store: EventStore,
    private readonly capacity = 10_000,
  ) {}

  remember(data: BonusCallRegistered['data']): void {
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(data.issueId, { providerId: data.providerId, currency: data.currency });
  }

  async of(streamId: string, issueId: number): Promise<Registration> {
    const cached = this.entries.get(issueId);
    if (cached) return cached;
    for (const recorded of await this.store.readStream(streamId)) {
      const event = parsePlayerBonusEvent(recorded);
      if (event.type === 'BonusCallRegistered' && event.data.issueId === issueId) {
        this.remember(event.data);
        return event.data;
      }
    }
    throw new Error(`stream ${streamId} has a free spin of bonus call ${issueId} but no registration of it`);
  }
}

// Long because: messagesOf and the handler share the relay's registration cache and bus (closures); the relay reads top
// to bottom in one place.
export function startBonusRelay(options: BonusRelayOptions): CatchUpRunner {
  const { store, bus } = options;
  const registrations = new RegistrationCache(store);

  /** The messages one stored event becomes: its bonus.events message, and a win request for a settled free spin. */
  const messagesOf = async (recorded: RecordedEvent): Promise<RelayedMessages> => {
    const owner = parseStreamId(recorded.streamId);
    if (owner?.category !== 'playerBonus')
      throw new Error(`relay received ${recorded.streamId}, which is not a playerBonus stream`);
    const event: PlayerBonusEvent = parsePlayerBonusEvent(recorded);
    const headers = { ...traceHeadersOf(recorded.metadata), [Headers.operatorId]: owner.operatorId };
    const metadata = recorded.metadata;

    if (event.type === 'BonusCallRegistered') registrations.remember(event.data);
    let win: OutgoingMessage | undefined;
    if (event.type === 'FreeSpinSettled') {
      // The dispatcher checks the win against this event before it sends it.
      const request = freeSpinWinRequest(
        event.data,
        owner,
        await registrations.of(recorded.streamId, event.data.issueId),
        {
          stream: recorded.streamId,
          revision: recorded.revision,
          eventId: recorded.eventId,
        },
      );
      win = { key: playerKey(request), value: request, headers: { ...headers, [Headers.messageType]: 'win' } };
    }
    const occurredAt = typeof metadata.occurredAt === 'string' ? metadata.occurredAt : recorded.recordedAt;
    const hook =
      event.type === 'FreeSpinStarted' || options.takesWebhooks?.(owner.operatorId) === false
        ? undefined
        : bonusWebhookOf(event, {
            eventId: recorded.eventId,
            revision: recorded.revision,
            operatorId: owner.operatorId,
            playerId: owner.playerId,
            occurredAt,
            currency: (await registrations.of(recorded.streamId, event.data.issueId)).currency,
          });
    const webhook = hook && {
      key: bonusWebhookKey({ operatorId: owner.operatorId, bonusId: hook.webhook.bonusId }),
      value: hook,
      headers: { ...headers, [Headers.messageType]: hook.webhook.type },
    };
    const value = bonusEventMessage.parse({
      eventId: recorded.eventId,
      streamId: recorded.streamId,
      revision: recorded.revision,
      operatorId: owner.operatorId,
      playerId: owner.playerId,
      occurredAt,
      correlationId: typeof metadata.correlationId === 'string' ? metadata.correlationId : recorded.eventId,
      causationId: typeof metadata.causationId === 'string' ? metadata.causationId : recorded.eventId,
      event,
    });
    return {
      event: { key: playerKey(owner), value, headers: { ...headers, [Headers.messageType]: event.type } },
      win,
      webhook,
      relayed: () => options.onRelayed?.(owner.operatorId, event),
    };
  };

  return startCatchUp({
    store,
    checkpoints: options.checkpoints,
    name: options.name ?? BONUS_RELAY_CHECKPOINT,
    filter: PLAYER_BONUS_FILTER,
    ...(options.shard ? { shard: options.shard } : {}),
    // One publish per topic per batch, in the order of the log. Atomic only on SQLite (one transaction);
    // on Kafka a publish is atomic per partition, so after a failure part of it may be out: the whole
    // batch is retried and consumers de-duplicate (the port's promise, docs/adr/0004-bus-port-promises.md).
    handleBatch: async (batch) => {
      if (options.held && !options.held()) throw new Error('the relay lease is no longer held: nothing sent');
      const messages = [];
      for (const recorded of batch) messages.push(await messagesOf(recorded));
      const wins = messages.flatMap((message) => (message.win ? [message.win] : []));
      if (wins.length > 0) await bus.publish(Topics.walletRequests, wins);
      // Only for operators with a webhookUrl (takesWebhooks); the dispatcher drops any other all the same.
      const webhooks = messages.flatMap((message) => (message.webhook ? [message.webhook] : []));
      if (webhooks.length > 0) await bus.publish(Topics.bonusWebhooks, webhooks);
      await bus.publish(
        Topics.bonusEvents,
        messages.map((message) => message.event),
      );
      for (const message of messages) message.relayed();
    },
    retryDelayMs: options.retryDelayMs ?? LEDGER_RETRY_DELAY_MS,
    onError: (error) => options.onError?.(error),
  });
}

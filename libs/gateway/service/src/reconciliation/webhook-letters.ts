/**
 * The operator's dead-lettered bonus webhooks (docs/adr/0008-bonus-webhooks.md):
 * the `webhookLetter-{operatorId}-{eventId}` streams the wallet-dispatcher writes when it gives a
 * webhook up. Read by the operator's own stream prefix, so another operator's letter is never even
 * read. A letter is standing while its stream ends with a WebhookDeadLettered; a re-drive appends
 * WebhookRedriveRequested, and a webhook parked again after it appends another WebhookDeadLettered.
 */
import {
  encodeStreamComponent,
  eventToAppend,
  parseStoredEvent,
  StreamCategories,
  webhookLetterStream,
  type EventContext,
  type WebhookDeadLettered,
  type WebhookDeadLetterView,
} from '@reelstream/contracts';
import type { EventStore, Position, RecordedEvent, StreamRevision } from '@reelstream/ports';
import { recordWebhookRedrive } from '@reelstream/wallet-application';

export interface WebhookLetterQuery {
  operatorId: string;
  limit: number;
  /** Exclusive: the event-log position of the last letter of the previous page. */
  after?: Position;
}

export interface WebhookLetterPage {
  items: WebhookDeadLetterView[];
  /** Position of the last item's WebhookDeadLettered when more may follow, else undefined. */
  last: Position | undefined;
}

export interface FoundWebhookLetter {
  readonly letter: WebhookDeadLettered['data'];
  readonly view: WebhookDeadLetterView;
  /** True while no re-drive was asked since it was dead-lettered (last). */
  readonly standing: boolean;
  readonly revision: StreamRevision;
}

const SCAN_PAGE = 500;

export function webhookLetterView(letter: WebhookDeadLettered['data']): WebhookDeadLetterView {
  return {
    eventId: letter.webhook.eventId,
    attempts: letter.attempts,
    lastError: letter.lastError,
    deadLetteredAt: letter.at,
    webhook: letter.webhook,
  };
}

export class WebhookLetters {
  constructor(private readonly store: EventStore) {}

  /** A page of the operator's standing letters, in the log order of the WebhookDeadLettered that made each one standing. */
  async page(query: WebhookLetterQuery): Promise<WebhookLetterPage> {
    const prefix = `${StreamCategories.webhookLetter}-${encodeStreamComponent(query.operatorId)}-`;
    const items: WebhookDeadLetterView[] = [];
    let from = query.after;
    for (;;) {
      const page = await this.store.readAll({
        maxCount: SCAN_PAGE,
        filter: { streamPrefixes: [prefix] },
        ...(from === undefined ? {} : { fromPosition: from }),
      });
      for (const recorded of page) {
        from = recorded.position;
        if (recorded.type !== 'WebhookDeadLettered') continue;
        const view = await this.standingAt(recorded);
        if (!view) continue;
        items.push(view);
        if (items.length === query.limit) return { items, last: recorded.position };
      }
      if (page.length < SCAN_PAGE) return { items, last: undefined };
    }
  }

  /** The operator's letter of this webhook, or undefined (never dead-lettered, or another operator's). */
  async find(operatorId: string, eventId: string): Promise<FoundWebhookLetter | undefined> {
    const stream = await this.store.readStream(webhookLetterStream(operatorId, eventId));
    const lastLetter = stream.findLast((event) => event.type === 'WebhookDeadLettered');
    const last = stream.at(-1);
    if (!lastLetter || !last) return undefined;
    const letter = letterOf(lastLetter);
    return { letter, view: webhookLetterView(letter), standing: last === lastLetter, revision: last.revision };
  }

  /**
   * Records that a re-drive was asked, unless the stream changed since `revision` was read (another
   * re-drive, or a new dead letter): then false, and nothing is appended.
   */
  async markRedriven(
    operatorId: string,
    eventId: string,
    revision: StreamRevision,
    context: EventContext & { requestId: string; at: string },
  ): Promise<boolean> {
    const { requestId, at, ...eventContext } = context;
    return recordWebhookRedrive(this.store, operatorId, eventId, revision, { context: eventContext, at, requestId });
  }

  /** The letter standing again (a re-drive that could not be sent): a copy of it, appended. */
  async reinstate(letter: WebhookDeadLettered['data'], context: EventContext & { at: string }): Promise<void> {
    const { at, ...metadata } = context;
    const { requestId: _requestId, ...eventContext } = metadata as EventContext & { requestId?: string };
    const event = { type: 'WebhookDeadLettered' as const, data: { ...letter, at } };
    await this.store.append(
      webhookLetterStream(letter.operatorId, letter.webhook.eventId),
      [eventToAppend(event, eventContext)],
      { expectedRevision: 'any' },
    );
  }

  private async standingAt(recorded: RecordedEvent): Promise<WebhookDeadLetterView | undefined> {
    const stream = await this.store.readStream(recorded.streamId);
    if (stream.at(-1)?.eventId !== recorded.eventId) return undefined;
    return webhookLetterView(letterOf(recorded));
  }
}

function letterOf(recorded: RecordedEvent): WebhookDeadLettered['data'] {
  const event = parseStoredEvent(recorded);
  if (event.type !== 'WebhookDeadLettered') throw new Error(`${recorded.streamId}: ${event.type} is no dead letter`);
  return event.data;
}

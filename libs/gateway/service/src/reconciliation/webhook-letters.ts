/**
 * The operator's dead-lettered bonus webhooks (docs/adr/0008-bonus-webhooks.md):
 * the `webhookLetter-{operatorId}-{eventId}` streams the wallet-dispatcher writes when it gives a
 * webhook up. A letter is standing while its stream ends with a WebhookDeadLettered; a re-drive
 * appends WebhookRedriveRequested, and a webhook parked again after it appends another
 * WebhookDeadLettered. The list comes from the reconciliation read model, keyed by operator, so
 * another operator's letter is never even read; one letter is read from its own stream.
 */
import {
  eventToAppend,
  parseStoredEvent,
  webhookLetterStream,
  type EventContext,
  type WebhookDeadLettered,
  type WebhookDeadLetterView,
} from '@reelstream/contracts';
import type { EventStore, StreamRevision } from '@reelstream/platform-ports';
import type { SqliteReconciliationReadModel } from '@reelstream/wallet-adapters';
import { recordWebhookRedrive, type ReconciliationProjection } from '@reelstream/wallet-application';
import type { ListPage } from './reconciliation-reader.js';

export interface WebhookLetterQuery {
  operatorId: string;
  limit: number;
  /** Exclusive: the place in the operator's list of the last letter of the previous page. */
  afterSeq?: number;
}

export interface FoundWebhookLetter {
  readonly letter: WebhookDeadLettered['data'];
  readonly view: WebhookDeadLetterView;
  /** True while no re-drive was asked since it was dead-lettered (last). */
  readonly standing: boolean;
  readonly revision: StreamRevision;
}

function webhookLetterView(letter: WebhookDeadLettered['data']): WebhookDeadLetterView {
  return {
    eventId: letter.webhook.eventId,
    attempts: letter.attempts,
    lastError: letter.lastError,
    deadLetteredAt: letter.at,
    webhook: letter.webhook,
  };
}

export class WebhookLetters {
  constructor(
    private readonly store: EventStore,
    /** The lists' read model, opened on first use (docs/adr/0017-reconciliation-projections.md). */
    private readonly reads: () => { readModel: SqliteReconciliationReadModel; projection: ReconciliationProjection },
  ) {}

  /**
   * A page of the operator's standing letters, in the order of the WebhookDeadLettered that made
   * each one standing: an index range of the read model, once it holds every letter event stored
   * when the request came.
   */
  async page(query: WebhookLetterQuery): Promise<ListPage<WebhookDeadLetterView>> {
    const { readModel, projection } = this.reads();
    await projection.caughtUp();
    const rows = readModel.webhookLetterRows(query.operatorId, query.afterSeq ?? 0, query.limit + 1);
    const page = rows.slice(0, query.limit);
    return {
      items: page.map((row) => webhookLetterView(row.letter as WebhookDeadLettered['data'])),
      lastSeq: rows.length > query.limit ? page.at(-1)?.seq : undefined,
    };
  }

  /** The operator's letter of this webhook, or undefined (never dead-lettered, or another operator's). */
  async find(operatorId: string, eventId: string): Promise<FoundWebhookLetter | undefined> {
    const stream = await this.store.readStream(webhookLetterStream(operatorId, eventId));
    const lastLetter = stream.findLast((event) => event.type === 'WebhookDeadLettered');
    const last = stream.at(-1);
    if (!lastLetter || !last) return undefined;
    // parseStoredEvent keeps the stored type: a WebhookDeadLettered, its data validated (and upcast).
    const { data: letter } = parseStoredEvent(lastLetter) as WebhookDeadLettered;
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
}

/**
 * The operator's dead-lettered bonus webhooks (docs/adr/0008-bonus-webhooks.md):
 * the `webhookLetter-{operatorId}-{eventId}` streams the wallet-dispatcher writes when it gives a
 * webhook up. A letter is standing while its stream ends with a WebhookDeadLettered; a re-drive
 * appends WebhookRedriveRequested, and a webhook parked again after it appends another
 * WebhookDeadLettered. The list comes from the reconciliation read model, keyed by operator, so
 * another operator's letter is never even read; one letter is read from its own stream.
 */
import {
  isRefusal,
  RefusedError,
  type EventContext,
  type WebhookDeadLettered,
  type WebhookDeadLetterView,
} from '@reelstream/contracts';
import type { EventStore, StreamRevision } from '@reelstream/platform-ports';
import {
  letterContext,
  recordWebhookRedrive,
  webhookLetterStreams,
  type ReconciliationProjection,
  type ReconciliationReadModel,
} from '@reelstream/wallet-application';
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
    private readonly reads: () => { readModel: ReconciliationReadModel; projection: ReconciliationProjection },
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
    // The stream named by the caller's operator: another operator's letter is never read.
    const { state, revision } = await webhookLetterStreams.load(this.store, { operatorId, eventId });
    if (!state.letter || revision === undefined) return undefined;
    return { letter: state.letter, view: webhookLetterView(state.letter), standing: state.standing, revision };
  }

  /**
   * Records that the letter `find` found was re-driven, unless it no longer stands or its stream
   * changed since (another re-drive, or a new dead letter): then false, and nothing is appended.
   */
  async markRedriven(
    found: FoundWebhookLetter,
    context: EventContext & { requestId: string; at: string },
  ): Promise<boolean> {
    const { requestId, at, ...eventContext } = context;
    const key = { operatorId: found.letter.operatorId, eventId: found.letter.webhook.eventId };
    const read = { state: { letter: found.letter, standing: found.standing }, revision: found.revision };
    return recordWebhookRedrive(this.store, key, read, { context: eventContext, at, requestId });
  }

  /** The letter standing again (a re-drive that could not be sent): a copy of its last letter, as of `at`. */
  async reinstate(letter: WebhookDeadLettered['data'], context: EventContext & { at: string }): Promise<void> {
    const { at, ...metadata } = context;
    const { requestId: _requestId, ...eventContext } = metadata as EventContext & { requestId?: string };
    const handled = await webhookLetterStreams.handle(
      this.store,
      { operatorId: letter.operatorId, eventId: letter.webhook.eventId },
      { type: 'Reinstate', at },
      letterContext(eventContext),
    );
    if (isRefusal(handled)) throw RefusedError.from(handled);
  }
}

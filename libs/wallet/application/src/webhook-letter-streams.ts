/**
 * The `webhookLetter-{operatorId}-{eventId}` streams, a command handler bound once: the dispatcher
 * writes a letter when it gives a bonus webhook up, a re-drive records that it sent the letter
 * again, and a re-drive that could not be sent puts it back (`webhookLetterDecider`).
 */
import { streamEventParser, webhookLetterStream, type EventContext } from '@reelstream/contracts';
import { commandHandler, ConcurrencyExhaustedError } from '@reelstream/platform-eventsourcing';
import type { EventStore, StreamRevision } from '@reelstream/platform-ports';
import { webhookLetterDecider, type WebhookLetterState } from '@reelstream/wallet-domain';

/** Names a letter's stream: the operator's webhook eventId. */
export interface WebhookLetterKey {
  readonly operatorId: string;
  readonly eventId: string;
}

export const webhookLetterStreams = commandHandler({
  decider: webhookLetterDecider,
  streamId: ({ operatorId, eventId }: WebhookLetterKey) => webhookLetterStream(operatorId, eventId),
  parse: streamEventParser('webhookLetter'),
});

/** The events' context of a command: its causation names it, so a command handled again appends the same events. */
export function letterContext(context: EventContext) {
  return { ...context, commandId: context.causationId };
}

/**
 * Records that the standing letter its re-driver read (`read`, at its revision) was sent again
 * (`WebhookRedriveRequested`): false, and nothing appended, when the letter no longer stands or the
 * stream moved since (another re-drive, or a new dead letter).
 */
export async function recordWebhookRedrive(
  store: EventStore,
  key: WebhookLetterKey,
  read: { readonly state: WebhookLetterState; readonly revision: StreamRevision },
  redrive: { context: EventContext; at: string; requestId?: string },
): Promise<boolean> {
  const command =
    redrive.requestId === undefined
      ? { type: 'RequestRedrive' as const, at: redrive.at }
      : { type: 'RequestRedrive' as const, at: redrive.at, requestId: redrive.requestId };
  try {
    const handled = await webhookLetterStreams.handle(store, key, command, letterContext(redrive.context), {
      loaded: read,
      // Decided on what the re-driver sent, never again on a stream that moved since.
      retry: { maxAttempts: 1 },
    });
    return 'events' in handled && handled.events.length > 0;
  } catch (error) {
    if (error instanceof ConcurrencyExhaustedError) return false;
    throw error;
  }
}

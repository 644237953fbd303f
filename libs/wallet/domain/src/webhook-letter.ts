/**
 * The decider of a `webhookLetter-{operatorId}-{eventId}` stream (docs/adr/0008-bonus-webhooks.md):
 * one bonus webhook the dispatcher gave up. A letter stands from its WebhookDeadLettered until a
 * re-drive is recorded (WebhookRedriveRequested); a webhook given up again after it, or a re-drive
 * that could not be sent, makes it stand again (another WebhookDeadLettered).
 */
import { refusal, type Refusal, type WebhookDeadLettered, type WebhookLetterEvent } from '@reelstream/contracts';

export interface WebhookLetterState {
  /** The last letter written; null before the first. */
  readonly letter: WebhookDeadLettered['data'] | null;
  /** True while no re-drive is recorded after the last letter. */
  readonly standing: boolean;
}

export type WebhookLetterCommand =
  /** The dispatcher gave the webhook up: a letter, unless one stands already (a redelivered message). */
  | { readonly type: 'DeadLetter'; readonly letter: WebhookDeadLettered['data'] }
  /** A re-drive sends the standing letter again: recorded once, whoever asks second is refused. */
  | { readonly type: 'RequestRedrive'; readonly at: string; readonly requestId?: string }
  /** The re-drive could not be sent: the last letter stands again, as of `at`. */
  | { readonly type: 'Reinstate'; readonly at: string };

const initialState: WebhookLetterState = { letter: null, standing: false };

function decide(command: WebhookLetterCommand, state: WebhookLetterState): WebhookLetterEvent[] | Refusal {
  switch (command.type) {
    case 'DeadLetter':
      return state.standing ? [] : [{ type: 'WebhookDeadLettered', data: command.letter }];
    case 'RequestRedrive': {
      if (!state.standing)
        return refusal(
          state.letter ? 'WEBHOOK_NOT_DEAD_LETTERED' : 'WEBHOOK_NOT_FOUND',
          state.letter ? 'the letter was re-driven already' : 'no letter was written for this webhook',
        );
      const data =
        command.requestId === undefined ? { at: command.at } : { at: command.at, requestId: command.requestId };
      return [{ type: 'WebhookRedriveRequested', data }];
    }
    case 'Reinstate':
      if (!state.letter) return refusal('WEBHOOK_NOT_FOUND', 'no letter was written for this webhook');
      return state.standing ? [] : [{ type: 'WebhookDeadLettered', data: { ...state.letter, at: command.at } }];
  }
}

function evolve(state: WebhookLetterState, event: WebhookLetterEvent): WebhookLetterState {
  return event.type === 'WebhookDeadLettered' ? { letter: event.data, standing: true } : { ...state, standing: false };
}

export const webhookLetterDecider = { initialState, decide, evolve };

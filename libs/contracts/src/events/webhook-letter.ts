/**
 * Events of a `webhookLetter` stream (docs/adr/0008-bonus-webhooks.md): one bonus
 * webhook the wallet-dispatcher gave up on, and what became of it. The dispatcher records the dead
 * letter (with the message, so it can be sent again as it was) when it parks the webhook; the
 * operator API records a re-drive when it sends it back to `bonus.webhooks`. A webhook parked again
 * after a re-drive gets another WebhookDeadLettered in the same stream.
 */
import * as z from 'zod';
import { bonusWebhook } from '../callbacks/webhooks.js';
import { isoInstant, operatorId } from '../shared/primitives.js';
import { eventOf } from './metadata.js';

export const webhookDeadLetteredData = z.strictObject({
  operatorId,
  webhook: bonusWebhook,
  /** The bus key it was published with (`operatorId:issueId`): a re-drive keeps its bonus's order key. */
  key: z.string().min(1).max(300),
  attempts: z.number().int().min(1),
  lastError: z.string().min(1).max(1000),
  at: isoInstant,
});

export const webhookRedriveRequestedData = z.strictObject({
  at: isoInstant,
  /** The request id of the operator API call that re-drove it. */
  requestId: z.string().min(1).max(200).optional(),
});

export const WebhookLetterEventTypes = {
  WebhookDeadLettered: 'WebhookDeadLettered',
  WebhookRedriveRequested: 'WebhookRedriveRequested',
} as const;

const webhookDeadLettered = eventOf(WebhookLetterEventTypes.WebhookDeadLettered, webhookDeadLetteredData);
const webhookRedriveRequested = eventOf(WebhookLetterEventTypes.WebhookRedriveRequested, webhookRedriveRequestedData);
export const webhookLetterEvent = z.discriminatedUnion('type', [webhookDeadLettered, webhookRedriveRequested]);
export type WebhookLetterEvent = z.infer<typeof webhookLetterEvent>;
export type WebhookDeadLettered = z.infer<typeof webhookDeadLettered>;

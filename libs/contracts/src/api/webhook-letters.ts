/**
 * Dead-lettered bonus webhooks over the operator API (docs/adr/0008-bonus-webhooks.md):
 * the webhooks the dispatcher gave up on, page by page, and their re-drive. Each is the signed body
 * that will be sent again, with the same `eventId`.
 */
import * as z from 'zod';
import { bonusWebhook } from '../callbacks/webhooks.js';
import { isoInstant } from '../shared/primitives.js';
import { okEnvelope, okPage } from './envelope.js';

const webhookExample = {
  eventId: 'bw-0b7c5a52-61a8-4c1e-9d55-3f0e8e0f7a11',
  type: 'bonus.completed',
  bonusId: 244376873632000,
  playerId: 'player_42',
  sequence: 11,
  occurredAt: '2026-05-01T09:30:00.120Z',
  status: 'completed',
  currency: 'EUR',
  spinsUsed: 10,
  totalWin: 4.2,
  reason: 'spins_used',
} as const;

const letterExample = {
  eventId: webhookExample.eventId,
  attempts: 10,
  lastError: 'HTTP 503',
  deadLetteredAt: '2026-05-01T09:34:05.310Z',
  webhook: webhookExample,
} as const;

const webhookDeadLetter = z
  .strictObject({
    eventId: z.string().meta({ description: 'The webhook’s event id (`X-Webhook-Event-Id`), the re-drive’s path.' }),
    attempts: z.number().int().min(1).meta({ description: 'Deliveries tried before it was given up.' }),
    lastError: z.string().meta({ description: 'Why the last one failed (HTTP status, time-out, refused connection).' }),
    deadLetteredAt: isoInstant,
    webhook: bonusWebhook.meta({ description: 'The body that is sent again, byte for byte the same.' }),
  })
  .meta({
    id: 'WebhookDeadLetter',
    description: 'A bonus webhook that was not delivered after every attempt, until it is re-driven.',
    examples: [letterExample],
  });
export type WebhookDeadLetterView = z.infer<typeof webhookDeadLetter>;

export const listWebhookDeadLettersResponse = okPage(webhookDeadLetter).meta({
  id: 'ListWebhookDeadLettersResponse',
  description:
    'GET /v1/webhooks/dead-letters: a page of the calling operator’s dead-lettered bonus webhooks, in the order they were dead-lettered (oldest first).',
  examples: [{ success: true, message: 'OK', data: { items: [letterExample], nextCursor: null } }],
});

export const webhookRedrivePathParams = z
  .strictObject({
    eventId: z.string().regex(/^bw-[0-9a-f-]{36}$/, { error: 'eventId must be a webhook event id (bw-…)' }),
  })
  .meta({
    id: 'WebhookRedrivePathParams',
    description: 'Path parameters of POST /v1/webhooks/dead-letters/{eventId}/redrive.',
    examples: [{ eventId: webhookExample.eventId }],
  });

export const webhookRedriveResponse = okEnvelope(
  z
    .strictObject({
      result: z.enum(['redriven', 'already_redriven']).meta({
        description:
          '`redriven`: sent back to delivery, from its first attempt; `already_redriven`: a re-drive of it is under way or done, nothing was sent.',
      }),
      deadLetter: webhookDeadLetter,
    })
    .meta({ id: 'WebhookRedriveResult', description: 'What the re-drive did.' }),
).meta({
  id: 'WebhookRedriveResponse',
  description:
    'POST /v1/webhooks/dead-letters/{eventId}/redrive: the webhook goes back to delivery with its own eventId and body.',
  examples: [{ success: true, message: 'OK', data: { result: 'redriven', deadLetter: letterExample } }],
});

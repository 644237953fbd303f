/**
 * Dead-lettered bonus webhooks end to end: a receiver that is down for every
 * attempt; the dispatcher gives the webhook up (recorded in its `webhookLetter` stream) and the bus
 * parks it; the operator lists it through the gateway, re-drives it once the receiver is up, and it
 * is delivered with the same eventId and bytes; a second re-drive sends nothing.
 */
import { expect, it } from '@jest/globals';
import { listWebhookDeadLettersResponse, webhookRedriveResponse, type BonusWebhook } from '@reelstream/contracts';
import { eventually } from '@reelstream/testing';
import { Stack } from './support/stack.js';
import { webhookReceiver } from './support/webhook-receiver.js';

const received: { webhook: BonusWebhook; body: string; status: number }[] = [];
let up = false;
const receiver = webhookReceiver(({ webhook, body }) => {
  const status = up ? 204 : 503;
  received.push({ webhook, body: body.toString('utf8'), status });
  return status;
});

// Every retry waits on the shortest delay topic (1 s); the circuit is half-open again by then, so each attempt is a POST.
const stack = Stack.forTests({ webhookUrl: receiver.url, webhookRetryDelayMs: () => 10, circuitOpenMs: 100 });

it('lists a webhook given up after its attempts, re-drives it once to delivery, and then no more', async () => {
  const issueId = await stack.registerFreeSpins({ playerId: 'hook_down', spinAmount: 1 });
  const listed = await eventually(async () => {
    const response = await stack.operatorApi('GET', '/v1/webhooks/dead-letters');
    expect(response.status).toBe(200);
    const { items } = listWebhookDeadLettersResponse.parse(response.body).data;
    expect(items.map((item) => item.webhook.bonusId)).toEqual([issueId]);
    return items[0];
  }, 60_000);
  if (!listed) throw new Error('nothing listed');
  expect(listed).toMatchObject({ attempts: 10, lastError: expect.stringContaining('503') });
  expect(listed.webhook).toMatchObject({ type: 'bonus.registered', playerId: 'hook_down' });
  const attempts = received.filter((delivery) => delivery.webhook.eventId === listed.eventId);
  expect(attempts).toHaveLength(10);

  up = true;
  const redriven = await stack.operatorApi('POST', `/v1/webhooks/dead-letters/${listed.eventId}/redrive`);
  expect(webhookRedriveResponse.parse(redriven.body).data.result).toBe('redriven');
  const delivered = await eventually(() => {
    const found = received.filter((delivery) => delivery.webhook.eventId === listed.eventId && delivery.status < 300);
    expect(found).toHaveLength(1);
    return found[0];
  }, 10_000);
  // The same bytes as every attempt before it.
  expect(delivered?.body).toBe(attempts[0]?.body);
  const after = listWebhookDeadLettersResponse.parse(
    (await stack.operatorApi('GET', '/v1/webhooks/dead-letters')).body,
  ).data;
  expect(after).toEqual({ items: [], nextCursor: null });

  const again = await stack.operatorApi('POST', `/v1/webhooks/dead-letters/${listed.eventId}/redrive`);
  expect(webhookRedriveResponse.parse(again.body).data.result).toBe('already_redriven');
  // A fixed wait on purpose: proves that the refused re-drive sends nothing within it.
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(received.filter((delivery) => delivery.webhook.eventId === listed.eventId)).toHaveLength(11);
}, 120_000);

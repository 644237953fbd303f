/**
 * Bonus webhooks end to end. Real gateway, ledger (its relay publishes `bonus.webhooks`),
 * dispatcher (signs and delivers them), sandbox and game-server on embedded back ends, and a
 * receiver that answers 503 to the first two deliveries of every event id. Each state change still
 * arrives (once per event id; repeats of an id are allowed), in order per bonus, signed with the
 * operator's secret.
 */
import { createHmac } from 'node:crypto';
import { expect, it } from '@jest/globals';
import type { BonusWebhook } from '@reelstream/contracts';
import { eventually } from '@reelstream/testing';
import { SIGNING_SECRET, Stack } from './support/stack.js';
import { webhookReceiver } from './support/webhook-receiver.js';

interface Delivery {
  webhook: BonusWebhook;
  status: number;
}

const deliveries: Delivery[] = [];
const badSignatures: string[] = [];
const attemptsOf = new Map<string, number>();
const receiver = webhookReceiver(({ webhook, body, headers }) => {
  const expected = createHmac('sha256', SIGNING_SECRET).update(body).digest('hex');
  if (headers['x-request-signature'] !== expected || headers['x-webhook-event-id'] !== webhook.eventId)
    badSignatures.push(webhook.eventId);
  const attempt = (attemptsOf.get(webhook.eventId) ?? 0) + 1;
  attemptsOf.set(webhook.eventId, attempt);
  const status = attempt <= 2 ? 503 : 204;
  deliveries.push({ webhook, status });
  return status;
});

const stack = Stack.forTests({
  webhookUrl: receiver.url,
  webhookRetryDelayMs: (attempt) => 50 * attempt,
  circuitOpenMs: 100,
});

/** The distinct webhooks of one bonus the receiver accepted (2xx), in the order it first accepted each. */
function accepted(bonusId: number): BonusWebhook[] {
  const seen = new Set<string>();
  return deliveries
    .filter((delivery) => delivery.status < 300 && delivery.webhook.bonusId === bonusId)
    .map((delivery) => delivery.webhook)
    .filter((webhook) => !seen.has(webhook.eventId) && seen.add(webhook.eventId));
}

it('delivers every state change of a bonus once per event id, in order, signed, through two failed deliveries each', async () => {
  // Expires about 2-3 s from now (expireAt has whole seconds), while the others are played and canceled.
  const expireAt = new Date(Date.now() + 3_000).toISOString().slice(0, 19).replace('T', ' ');
  const expiring = await stack.registerFreeSpins({ playerId: 'hooked_late', spinAmount: 4, expireAt });
  const played = await stack.registerFreeSpins({ playerId: 'hooked', spinAmount: 2 });
  const canceled = await stack.registerFreeSpins({ playerId: 'hooked_too', spinAmount: 3 });
  const { token } = await stack.launch('hooked', 101);
  const spins = [];
  for (let spin = 0; spin < 2; spin++) spins.push((await stack.spin(token, { issueId: played })).body.data);
  expect((await stack.cancelBonus(canceled)).status).toBe(200);

  const changes = await eventually(() => {
    const found = { played: accepted(played), canceled: accepted(canceled), expired: accepted(expiring) };
    expect(found.played).toHaveLength(4);
    expect(found.canceled).toHaveLength(2);
    expect(found.expired).toHaveLength(2);
    return found;
  }, 60_000);
  expect(changes.played.map((webhook) => webhook.type)).toEqual([
    'bonus.registered',
    'bonus.spin_settled',
    'bonus.spin_settled',
    'bonus.completed',
  ]);
  expect(changes.canceled.map((webhook) => webhook.type)).toEqual(['bonus.registered', 'bonus.canceled']);
  const totalWin = (spins as { win: number }[]).reduce((sum, spin) => Math.round((sum + spin.win) * 100) / 100, 0);
  expect(changes.played.map((webhook) => [webhook.status, webhook.spinsUsed, webhook.totalWin])).toEqual([
    ['active', 0, 0],
    ['active', 1, (spins[0] as { win: number }).win],
    ['active', 2, totalWin],
    ['completed', undefined, totalWin],
  ]);
  expect(changes.expired.map((webhook) => webhook.type)).toEqual(['bonus.registered', 'bonus.expired']);
  expect(changes.expired[1]).toMatchObject({
    status: 'expired',
    spinsForfeited: 4,
    totalWin: 0,
    playerId: 'hooked_late',
  });
  expect(changes.canceled[1]).toMatchObject({
    status: 'canceled',
    spinsForfeited: 3,
    totalWin: 0,
    playerId: 'hooked_too',
  });
  for (const bonus of [changes.played, changes.canceled, changes.expired]) {
    const sequences = bonus.map((webhook) => webhook.sequence);
    expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
  }
  // Every id was refused twice before it was accepted, and nothing arrived unsigned or signed otherwise.
  for (const webhook of [...changes.played, ...changes.canceled, ...changes.expired])
    expect(attemptsOf.get(webhook.eventId)).toBeGreaterThanOrEqual(3);
  expect(badSignatures).toEqual([]);
  // Per bonus, no later change was accepted before an earlier one (order kept through the retries).
  const acceptedOrder = deliveries.filter((delivery) => delivery.status < 300 && delivery.webhook.bonusId === played);
  const firstSeen = acceptedOrder.map((delivery) => delivery.webhook.sequence);
  expect(firstSeen).toEqual([...firstSeen].sort((a, b) => a - b));
}, 90_000);

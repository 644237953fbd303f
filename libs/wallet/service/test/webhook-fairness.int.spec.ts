/**
 * Webhook fairness on a real SQLite bus and real HTTP receivers, with the production backoff: one
 * operator's endpoint failing for every bonus does not delay another operator's webhooks (its
 * webhooks wait for their retries on the delay topics, not in the consumer's slots), and one
 * bonus's changes still arrive in order when its first change needs retries.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { openEventStore, openMessageBus } from '@reelstream/platform-backends';
import { OperatorDirectory } from '@reelstream/platform-config';
import {
  bonusWebhook,
  bonusWebhookKey,
  bonusWebhookOf,
  parseOperatorsConfig,
  Topics,
  type BonusWebhook,
} from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { partitionFor } from '@reelstream/platform-messaging-sqlite';
import { systemClock, type EventStore, type MessageBus } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import { createLogger } from '@reelstream/platform-telemetry';
import { DEFAULT_KEY_CONCURRENCY } from '@reelstream/wallet-application';
import { startWalletDispatcher, type WalletDispatcher } from '../src/index.js';

const received: { path: string; webhook: BonusWebhook; status: number; atMs: number }[] = [];
/** Attempts of the `ordered` operator's bonus 7 refused before its endpoint accepts. */
let orderedRefusals = 2;
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const webhook = bonusWebhook.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    const path = request.url ?? '';
    let status = 200;
    if (path === '/failing') status = 503;
    if (path === '/ordered' && orderedRefusals > 0) {
      orderedRefusals -= 1;
      status = 503;
    }
    received.push({ path, webhook, status, atMs: performance.now() });
    response.writeHead(status).end();
  });
});

let dir = '';
let store: EventStore;
let bus: MessageBus;
let dispatcher: WalletDispatcher;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const operator = (id: string) => ({
    id,
    name: id,
    apiToken: `${id}-api-token-0123456789`,
    callbackUrl: `${base}/wallet`,
    webhookUrl: `${base}/${id}`,
    signingSecret: `${id}-signing-secret-0123456789`,
    currency: 'EUR',
  });
  const operators = new OperatorDirectory(
    parseOperatorsConfig([operator('failing'), operator('innocent'), operator('ordered')]),
  );
  dir = mkdtempSync(join(tmpdir(), 'webhook-fairness-'));
  ({ store } = await openEventStore(`sqlite:${join(dir, 'events.db')}`));
  bus = await openMessageBus(`sqlite:${join(dir, 'bus.db')}?pollIntervalMs=10`, { instanceId: 'webhook-fairness' });
  dispatcher = await startWalletDispatcher(
    {
      store,
      bus,
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(11),
      logger: createLogger({ service: 'webhook-fairness', level: 'error', destination: { write: () => undefined } }),
      operators,
    },
    { healthPort: 0, healthHost: '127.0.0.1', maxSockets: 16 },
  );
  await dispatcher.ready;
});

afterAll(async () => {
  await dispatcher?.stop();
  await bus?.close();
  await store?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

let events = 0;
/** A state change of bonus `issueId` at revision `revision` of its stream, as the ledger's relay publishes it. */
const change = (operatorId: string, issueId: number, revision = 0) => {
  events += 1;
  const message = bonusWebhookOf(
    {
      type: 'BonusCallCanceled',
      data: { issueId, spinsForfeited: 1, totalWinMinor: 0, canceledAt: '2026-11-27T04:00:00.000Z' },
    },
    {
      eventId: `00000000-0000-4000-8000-${String(events).padStart(12, '0')}`,
      revision,
      operatorId,
      playerId: `p${issueId}`,
      occurredAt: '2026-11-27T04:00:00.000Z',
      currency: 'EUR',
    },
  );
  if (!message) throw new Error('no webhook');
  return { key: bonusWebhookKey({ operatorId, bonusId: issueId }), value: message };
};

it("delivers an innocent operator's webhook at once while another operator's endpoint fails every bonus", async () => {
  // More failing bonuses than the consumer handles at once in the innocent's partition (of the bus's default 16):
  // retried in place, they would fill its every slot for minutes.
  const partition = partitionFor(bonusWebhookKey({ operatorId: 'innocent', bonusId: 1 }), 16);
  const failing = [];
  for (let bonusId = 1_000; failing.length < DEFAULT_KEY_CONCURRENCY * 2; bonusId++)
    if (partitionFor(bonusWebhookKey({ operatorId: 'failing', bonusId }), 16) === partition)
      failing.push(change('failing', bonusId));
  await bus.publish(Topics.bonusWebhooks, failing);
  // Every slot of the partition is busy with a failing bonus (retried in place) or it has been set aside (rescheduled).
  await eventually(
    () =>
      expect(
        new Set(received.filter((each) => each.path === '/failing').map((each) => each.webhook.bonusId)).size,
      ).toBeGreaterThanOrEqual(DEFAULT_KEY_CONCURRENCY),
    30_000,
  );
  const sentAt = performance.now();
  await bus.publish(Topics.bonusWebhooks, [change('innocent', 1)]);
  const delivered = await eventually(() => {
    const found = received.find((each) => each.path === '/innocent');
    expect(found?.status).toBe(200);
    return found;
  }, 30_000);
  const latencyMs = (delivered?.atMs ?? Number.POSITIVE_INFINITY) - sentAt;
  process.stdout.write(`innocent operator's webhook delivered ${latencyMs.toFixed(0)} ms after its publish\n`);
  // The failing operator's first retry alone is 1 s away, its park minutes: a wide bound for a busy 2-core machine.
  expect(latencyMs).toBeLessThan(5_000);
}, 90_000);

it("keeps one bonus's changes in order while its first change waits for its retries", async () => {
  await bus.publish(Topics.bonusWebhooks, [change('ordered', 7, 0), change('ordered', 7, 1), change('ordered', 7, 2)]);
  const accepted = await eventually(() => {
    const delivered = received.filter((each) => each.path === '/ordered' && each.status === 200);
    expect(delivered).toHaveLength(3);
    return delivered;
  }, 60_000);
  expect(accepted?.map((each) => each.webhook.sequence)).toEqual([0, 1, 2]);
  // The first change was refused twice before; no later change was sent before it was accepted.
  const attempts = received.filter((each) => each.path === '/ordered').map((each) => each.webhook.sequence);
  expect(attempts).toEqual([0, 0, 0, 1, 2]);
}, 90_000);

/**
 * The dispatcher's bonus webhook delivery on a real SQLite bus and a real HTTP receiver.
 * A bonus whose receiver keeps failing is parked on `bonus.webhooks.dlq` after its attempts and
 * holds no other bonus; the re-drive sends it again with the same eventId; an operator without a
 * webhookUrl gets none.
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
  webhookLetterStream,
  type BonusWebhook,
} from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { isConsumerLagSource, systemClock, type EventStore, type MessageBus } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import { createLogger } from '@reelstream/platform-telemetry';
import { defaultBulkheadLimits, redriveParkedWebhooks, WEBHOOK_MAX_ATTEMPTS } from '@reelstream/wallet-application';
import { startWalletDispatcher, type WalletDispatcher } from '../src/index.js';

const received: { webhook: BonusWebhook; status: number }[] = [];
/** Bonus ids the receiver refuses (503) while they are in here. */
const refusing = new Set<number>([1]);
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const webhook = bonusWebhook.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    const status = refusing.has(webhook.bonusId) ? 503 : 200;
    received.push({ webhook, status });
    response.writeHead(status).end();
  });
});

const logs: string[] = [];
let dir = '';
let store: EventStore;
let bus: MessageBus;
let dispatcher: WalletDispatcher;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const operator = (id: string, webhookUrl?: string) => ({
    id,
    name: id,
    apiToken: `${id}-api-token-0123456789`,
    callbackUrl: `${base}/wallet`,
    ...(webhookUrl === undefined ? {} : { webhookUrl }),
    signingSecret: `${id}-signing-secret-0123456789`,
    currency: 'EUR',
  });
  const operators = new OperatorDirectory(
    parseOperatorsConfig([operator('hooked', `${base}/hooks`), operator('unhooked')]),
  );
  dir = mkdtempSync(join(tmpdir(), 'dispatcher-webhooks-'));
  ({ store } = await openEventStore(`sqlite:${join(dir, 'events.db')}`));
  bus = await openMessageBus(`sqlite:${join(dir, 'bus.db')}?pollIntervalMs=10`, { instanceId: 'webhooks' });
  dispatcher = await startWalletDispatcher(
    {
      store,
      bus,
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(9),
      logger: createLogger({
        service: 'webhooks',
        level: 'info',
        destination: { write: (line: string) => logs.push(line) },
      }),
      operators,
      webhookRetryDelayMs: () => 10,
    },
    // The circuit half-open again by each retry (on the 1 s delay topic): every attempt is a POST.
    { healthPort: 0, healthHost: '127.0.0.1', maxSockets: 4, bulkhead: { ...defaultBulkheadLimits, openMs: 100 } },
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

/** How many messages `topic` holds: the lag of a group that never consumes it. */
async function messagesOn(topic: string): Promise<number> {
  if (!isConsumerLagSource(bus)) throw new Error('the embedded bus reports its lag');
  return (await bus.consumerLag('webhooks-test-probe', [topic])).reduce((sum, partition) => sum + partition.lag, 0);
}

const registered = (operatorId: string, issueId: number, eventId: string) => {
  const message = bonusWebhookOf(
    {
      type: 'BonusCallCanceled',
      data: { issueId, spinsForfeited: 1, totalWinMinor: 0, canceledAt: '2026-11-27T04:00:00.000Z' },
    },
    { eventId, revision: 0, operatorId, playerId: 'p1', occurredAt: '2026-11-27T04:00:00.000Z', currency: 'EUR' },
  );
  if (!message) throw new Error('no webhook');
  return { key: bonusWebhookKey({ operatorId, bonusId: issueId }), value: message };
};

it('parks a bonus whose receiver keeps failing without holding the others, and re-drives it with the same eventId', async () => {
  await bus.publish(Topics.bonusWebhooks, [
    registered('hooked', 1, '00000000-0000-4000-8000-000000000001'),
    registered('unhooked', 2, '00000000-0000-4000-8000-000000000002'),
    registered('hooked', 3, '00000000-0000-4000-8000-000000000003'),
  ]);
  await eventually(() => expect(received.filter((each) => each.webhook.bonusId === 3)).toHaveLength(1), 5_000);
  // Each retry waits on the shortest delay topic (1 s).
  await eventually(
    () => expect(received.filter((each) => each.webhook.bonusId === 1)).toHaveLength(WEBHOOK_MAX_ATTEMPTS),
    60_000,
  );
  // The last attempt failed: the dispatcher records the letter, logs it given up and parks the webhook on the DLQ.
  await eventually(async () => {
    const parked = await messagesOn(`${Topics.bonusWebhooks}.dlq`);
    if (parked < 1)
      throw new Error(`waited for bonus 1's webhook to be parked on bonus.webhooks.dlq; it holds ${parked}`);
  }, 10_000);
  // Parked: no further attempt, and the operator without a webhookUrl got nothing (a fixed wait on purpose: nothing
  // may come within it).
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(received.filter((each) => each.webhook.bonusId === 1)).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
  expect(received.some((each) => each.webhook.bonusId === 2)).toBe(false);

  expect(logs.filter((line) => line.includes('bonus webhook given up'))).toHaveLength(1);
  expect(logs.find((line) => line.includes('bonus webhook given up'))).toContain('HTTP 503');

  // Recorded for the operator API before the park, with the message to send again.
  const letter = webhookLetterStream('hooked', 'bw-00000000-0000-4000-8000-000000000001');
  expect((await store.readStream(letter)).map((event) => event.type)).toEqual(['WebhookDeadLettered']);
  expect((await store.readStream(letter))[0]?.data).toMatchObject({
    attempts: WEBHOOK_MAX_ATTEMPTS,
    lastError: 'HTTP 503',
  });

  refusing.delete(1);
  expect(await redriveParkedWebhooks(bus, { store })).toBe(1);
  expect((await store.readStream(letter)).map((event) => event.type)).toEqual([
    'WebhookDeadLettered',
    'WebhookRedriveRequested',
  ]);
  const redriven = await eventually(() => {
    const delivered = received.filter((each) => each.webhook.bonusId === 1 && each.status === 200);
    expect(delivered).toHaveLength(1);
    return delivered[0];
  }, 5_000);
  expect(redriven?.webhook.eventId).toBe('bw-00000000-0000-4000-8000-000000000001');
  // A second re-drive finds nothing left.
  expect(await redriveParkedWebhooks(bus)).toBe(0);
}, 120_000);

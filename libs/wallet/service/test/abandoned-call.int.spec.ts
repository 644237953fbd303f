/**
 * The bus abandons a handler whose deadline passed (or whose partition was revoked): on real Kafka
 * the wallet's operator POST is aborted with it (the handler's `ConsumerContext.signal`), the attempt
 * is recorded as a time-out whose outcome is unknown — never as a success — and the redelivery sends
 * it again with the same transactionId, which the operator applies once. Needs `KAFKA_BROKERS`.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openEventStore, openMessageBus } from '@reelstream/platform-backends';
import { parseStoredEvent, playerKey, walletTxStream } from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { systemClock, type EventStore, type MessageBus, type Consumer } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import { HttpOperatorWallet } from '@reelstream/wallet-adapters';
import { silentLog, walletSubscriptions } from '@reelstream/wallet-application';
import {
  operatorDirectory,
  startTestSandbox,
  testOperator,
  type TestSandbox,
} from '../../../sandbox/service/test/test-sandbox.js';
import { winRequest } from './rig.js';

const brokers = process.env['KAFKA_BROKERS'];
const SECRET = 'abandoned-call-secret-0123456789';
/** The bus's handler deadline here: far under the win's own call limit (4 s) and the sandbox's late answer. */
const HANDLER_TIMEOUT_MS = 1_500;

if (!brokers)
  process.stdout.write('[kafka] abandoned operator call case NOT run: KAFKA_BROKERS is not set (no Kafka here).\n');

(brokers ? describe : describe.skip)('an operator call whose handler the bus abandons (real Kafka)', () => {
  const saved = { handler: process.env['KAFKA_HANDLER_TIMEOUT_MS'], session: process.env['KAFKA_SESSION_TIMEOUT_MS'] };
  let sandbox: TestSandbox;
  let store: EventStore;
  let bus: MessageBus;
  let consumer: Consumer | undefined;
  const wallet = new HttpOperatorWallet();

  beforeAll(async () => {
    process.env['KAFKA_HANDLER_TIMEOUT_MS'] = String(HANDLER_TIMEOUT_MS);
    process.env['KAFKA_SESSION_TIMEOUT_MS'] = '3000';
    sandbox = await startTestSandbox('abandoned-call', {
      operators: operatorDirectory([testOperator('abandon', SECRET)]),
    });
    ({ store } = await openEventStore(`sqlite:${join(sandbox.dir, 'reelstream.db')}`));
    bus = await openMessageBus(`kafka://${brokers}`, { instanceId: `abandoned-call-${Date.now()}` });
  }, 60_000);

  afterAll(async () => {
    for (const [name, value] of [
      ['KAFKA_HANDLER_TIMEOUT_MS', saved.handler],
      ['KAFKA_SESSION_TIMEOUT_MS', saved.session],
    ] as const)
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    await consumer?.stop();
    await bus?.close();
    await store?.close();
    await wallet.close();
    await sandbox?.stop();
  });

  it('aborts the POST at the deadline, records a time-out with unknown outcome, and the redelivery applies the win once', async () => {
    const run = `${Date.now()}`;
    const topic = `wallet.requests.abandoned-call.${run}`;
    const operators = operatorDirectory([
      testOperator('abandon', SECRET, { callbackUrl: `${sandbox.url}/wallet/abandon` }),
    ]);
    const subscriptions = walletSubscriptions({
      store,
      bus,
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(11),
      wallet,
      operators,
      log: silentLog,
    });
    const deliveries: { attempt: number; abortedWith?: string }[] = [];
    const parked: string[] = [];
    consumer = await bus.subscribe({
      ...subscriptions.requests,
      groupId: `abandoned-call.${run}`,
      topics: [topic],
      deadLetterTopic: (from) => `${from}.dlq`,
      handler: async (message, context) => {
        const delivery: { attempt: number; abortedWith?: string } = { attempt: context.attempt };
        deliveries.push(delivery);
        context.signal.addEventListener('abort', () => {
          delivery.abortedWith = String((context.signal.reason as { name?: string } | undefined)?.name);
        });
        await subscriptions.requests.handler(message, context);
      },
    });
    const watcher = await bus.subscribe({
      groupId: `abandoned-call.${run}.dlq`,
      topics: [`${topic}.dlq`],
      handler: async (message) => void parked.push(message.offset),
    });
    await Promise.all([consumer.ready, watcher.ready]);

    // The sandbox applies the first call at once and answers it 20 s late: past the handler's deadline
    // and the win's own 4 s limit, so only the aborted POST ends it within the deadline.
    sandbox.faults.add({ operatorId: 'abandon', command: 'win', latencyMs: 20_000, times: 1 });
    const win = await winRequest(store, 'abandoned_player', 500, 'abandon');
    await bus.publish(topic, { key: playerKey(win), value: win });

    const typesOf = async () =>
      (await store.readStream(walletTxStream(win.transactionId))).map(
        (event) => parseStoredEvent(event) as { type: string; data: Record<string, unknown> },
      );
    await eventually(
      async () => expect((await typesOf()).map((event) => event.type)).toContain('WalletSucceeded'),
      30_000,
    );
    const events = await typesOf();
    // The first attempt ended as an unknown outcome (the aborted call), never as a success.
    const firstSuccess = events.findIndex((event) => event.type === 'WalletSucceeded');
    const attemptsBeforeSuccess = events
      .slice(0, firstSuccess)
      .filter((event) => event.type === 'WalletAttempted')
      .map((event) => event.data['attempt']);
    expect(attemptsBeforeSuccess.length).toBeGreaterThanOrEqual(2);
    const failed = events.filter((event) => event.type === 'WalletFailed');
    expect(failed.map((event) => ({ final: event.data['final'], error: String(event.data['error']) }))).toEqual([
      { final: false, error: expect.stringMatching(/^timeout: abandoned before its reply/) },
    ]);
    expect(events.filter((event) => event.type === 'WalletSucceeded')).toHaveLength(1);
    // The bus abandoned the first delivery at its deadline and delivered it again.
    expect(deliveries[0]).toEqual({ attempt: 1, abortedWith: 'HandlerTimeoutError' });
    expect(deliveries.map((delivery) => delivery.attempt).slice(0, 2)).toEqual([1, 2]);
    // The operator saw the same transactionId twice and applied it once.
    expect(sandbox.views.requests({ transactionId: win.transactionId }).length).toBeGreaterThanOrEqual(2);
    const applied = sandbox.views.transactions({ transactionId: win.transactionId });
    expect(
      applied.map((row) => ({ command: row.command, applied: row.applied, creditMinor: row.creditMinor })),
    ).toEqual([{ command: 'win', applied: true, creditMinor: 500 }]);
    expect(parked).toEqual([]);
    await watcher.stop();
  }, 90_000);
});

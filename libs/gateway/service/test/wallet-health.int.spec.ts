/**
 * `GET /v1/wallet/health` over a history written as the wallet-dispatcher writes it: callbacks of
 * two operators at known times and answers, so each figure — callbacks, success rate, latency,
 * failure reasons, buckets — is known in advance. Operator B's callbacks never count for A, nor
 * A's for B; time moving on empties the hour and then the day.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  errorEnvelope,
  eventToAppend,
  walletHealthResponse,
  walletTxStream,
  type DomainEvent,
  type WalletHealth,
} from '@reelstream/contracts';
import type { EventStore } from '@reelstream/platform-ports';
import { sampleBetRequest } from '@reelstream/testing';
import type { HttpClient } from './support/http-client.js';
import { startHarness, type Harness } from './support/harness.js';
import { OPERATOR_IDS, TOKENS } from './support/operators.js';

let harness: Harness;
let a: HttpClient;
let b: HttpClient;
let nextTransaction = 700_000_000_000;

/** The harness clock's start: every time below is before it. */
const NOW = Date.parse('2026-05-01T00:00:00.000Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

type Answer =
  { ok: true; afterMs: number } | { ok: false; afterMs: number; statusCode?: 'ERR_NOT_ENOUGH_MONEY'; error?: string };

/**
 * A bet of `operatorId` requested at `at`, sent once per answer (each sent `afterMs` after the
 * previous answer, the first at `at`), the last answer final. With `cancel`, a cancel follows,
 * answered OK after that many milliseconds. Returns the transactionId.
 */
async function writeBet(
  store: EventStore,
  operatorId: string,
  at: string,
  answers: Answer[],
  cancel?: number,
): Promise<number> {
  const transactionId = ++nextTransaction;
  const request = sampleBetRequest({ operatorId, transactionId, roundId: transactionId + 1, requestedAt: at });
  const events: DomainEvent[] = [
    { type: 'WalletRequested', data: { transactionId, operatorId, command: 'bet', request, requestedAt: at } },
  ];
  let time = Date.parse(at);
  answers.forEach((answer, index) => {
    const attempt = index + 1;
    events.push({ type: 'WalletAttempted', data: { attempt, at: new Date(time).toISOString() } });
    time += answer.afterMs;
    const answeredAt = new Date(time).toISOString();
    events.push(
      answer.ok
        ? { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 10_000, at: answeredAt } }
        : {
            type: 'WalletFailed',
            data: {
              ...(answer.statusCode !== undefined ? { statusCode: answer.statusCode } : {}),
              ...(answer.error !== undefined ? { error: answer.error } : {}),
              attempt,
              final: attempt === answers.length,
              at: answeredAt,
            },
          },
    );
  });
  if (cancel !== undefined) {
    const cancelTransactionId = ++nextTransaction;
    const sent = new Date(time).toISOString();
    events.push(
      { type: 'CancelRequested', data: { cancelTransactionId, refTransactionId: transactionId, at: sent } },
      { type: 'WalletAttempted', data: { attempt: 1, command: 'cancel', at: sent } },
      { type: 'CancelSucceeded', data: { at: new Date(time + cancel).toISOString() } },
    );
  }
  const context = { correlationId: randomUUID(), causationId: randomUUID(), operatorId, occurredAt: at };
  await store.append(
    walletTxStream(transactionId),
    events.map((event) => eventToAppend(event, context)),
    { expectedRevision: 'no_stream' },
  );
  return transactionId;
}

async function healthOf(client: HttpClient): Promise<WalletHealth> {
  const response = await client.get('/v1/wallet/health');
  expect(response.status).toBe(200);
  return walletHealthResponse.parse(response.body).data;
}

const windowOf = (health: WalletHealth, name: 'hour' | 'day') => {
  const found = health.windows.find((window) => window.window === name);
  if (!found) throw new Error(`no ${name} window`);
  return found;
};
const commandOf = (health: WalletHealth, name: 'hour' | 'day', command: string) =>
  windowOf(health, name).commands.find((row) => row.command === command);

beforeAll(async () => {
  harness = await startHarness();
  a = harness.http.withToken(TOKENS.a);
  b = harness.http.withToken(TOKENS.b);
  const { store } = harness;
  const A = OPERATOR_IDS.a;
  // Operator A, the last hour: three bets OK in 40, 80 and 120 ms; one refused for funds after 20 ms,
  // then canceled OK in 30 ms; one timed out, then OK in 60 ms.
  await writeBet(store, A, ago(10 * MINUTE), [{ ok: true, afterMs: 40 }]);
  await writeBet(store, A, ago(12 * MINUTE), [{ ok: true, afterMs: 80 }]);
  await writeBet(store, A, ago(50 * MINUTE), [{ ok: true, afterMs: 120 }]);
  await writeBet(store, A, ago(20 * MINUTE), [{ ok: false, afterMs: 20, statusCode: 'ERR_NOT_ENOUGH_MONEY' }], 30);
  await writeBet(store, A, ago(30 * MINUTE), [
    { ok: false, afterMs: 3_500, error: 'timeout after 3500 ms' },
    { ok: true, afterMs: 60 },
  ]);
  // Operator A, earlier today: a reply that was not a valid answer (3 h ago) and one OK (5 h ago).
  await writeBet(store, A, ago(3 * HOUR), [{ ok: false, afterMs: 200, error: 'HTTP 502' }]);
  await writeBet(store, A, ago(5 * HOUR), [{ ok: true, afterMs: 10 }]);
  // Operator A, two days ago: in no window.
  await writeBet(store, A, ago(48 * HOUR), [{ ok: true, afterMs: 10 }]);
  // Operator B, the last hour: four failed callbacks, timed out at 4 s — none of A's figures.
  for (let bet = 0; bet < 4; bet++)
    await writeBet(store, OPERATOR_IDS.b, ago(5 * MINUTE), [{ ok: false, afterMs: 4_000, error: 'timeout' }]);
});

afterAll(async () => {
  await harness.close();
});

describe('GET /v1/wallet/health', () => {
  it("counts the operator's callbacks of the last hour per command, with their success rate, latency and failures", async () => {
    const health = await healthOf(a);
    expect(health).toMatchObject({ operatorId: OPERATOR_IDS.a, at: '2026-05-01T00:00:00.000Z' });
    expect(windowOf(health, 'hour')).toMatchObject({
      from: '2026-04-30T23:00:00.000Z',
      to: '2026-05-01T00:00:00.000Z',
      bucketSeconds: 300,
    });
    // Six bet callbacks: 40, 80, 120, 20 (refused), 3500 (timed out), 60 ms.
    expect(commandOf(health, 'hour', 'bet')).toEqual({
      command: 'bet',
      callbacks: 6,
      succeeded: 4,
      failed: 2,
      successRate: 0.6667,
      latencyMs: { average: 637, p50: 60, p95: 3_500, max: 3_500 },
      failures: [
        { reason: 'ERR_NOT_ENOUGH_MONEY', count: 1 },
        { reason: 'TIMEOUT', count: 1 },
      ],
    });
    expect(commandOf(health, 'hour', 'cancel')).toEqual({
      command: 'cancel',
      callbacks: 1,
      succeeded: 1,
      failed: 0,
      successRate: 1,
      latencyMs: { average: 30, p50: 30, p95: 30, max: 30 },
      failures: [],
    });
    for (const command of ['win', 'betwin'])
      expect(commandOf(health, 'hour', command)).toEqual({
        command,
        callbacks: 0,
        succeeded: 0,
        failed: 0,
        successRate: null,
        latencyMs: null,
        failures: [],
      });
  });

  it('adds the rest of the day to the day window, and charts both bucket by bucket', async () => {
    const health = await healthOf(a);
    expect(commandOf(health, 'day', 'bet')).toMatchObject({
      callbacks: 8,
      succeeded: 5,
      failed: 3,
      successRate: 0.625,
      failures: [
        { reason: 'ERR_NOT_ENOUGH_MONEY', count: 1 },
        { reason: 'NO_VALID_ANSWER', count: 1 },
        { reason: 'TIMEOUT', count: 1 },
      ],
    });
    const hour = windowOf(health, 'hour');
    expect(hour.buckets).toHaveLength(12);
    expect(hour.buckets.reduce((sum, bucket) => sum + bucket.callbacks, 0)).toBe(7);
    // Answered 12 minutes ago (in 80 ms) and 10 minutes ago (in 40 ms): two buckets of 5 minutes.
    expect(hour.buckets[9]).toEqual({ from: ago(15 * MINUTE), callbacks: 1, succeeded: 1, latencyMsP95: 80 });
    expect(hour.buckets[10]).toEqual({ from: ago(10 * MINUTE), callbacks: 1, succeeded: 1, latencyMsP95: 40 });
    // 20 minutes ago: the refused bet and its cancel.
    expect(hour.buckets[8]).toEqual({ from: ago(20 * MINUTE), callbacks: 2, succeeded: 1, latencyMsP95: 30 });
    const day = windowOf(health, 'day');
    expect(day.buckets).toHaveLength(24);
    expect(day.buckets[23]).toMatchObject({ from: ago(HOUR), callbacks: 7, succeeded: 5 });
    expect(day.buckets[21]).toEqual({ from: ago(3 * HOUR), callbacks: 1, succeeded: 0, latencyMsP95: 200 });
    expect(day.buckets[19]).toEqual({ from: ago(5 * HOUR), callbacks: 1, succeeded: 1, latencyMsP95: 10 });
  });

  it("shows another operator only its own callbacks: B's timeouts, none of A's", async () => {
    const ofB = await healthOf(b);
    expect(ofB.operatorId).toBe(OPERATOR_IDS.b);
    expect(commandOf(ofB, 'day', 'bet')).toEqual({
      command: 'bet',
      callbacks: 4,
      succeeded: 0,
      failed: 4,
      successRate: 0,
      latencyMs: { average: 4_000, p50: 4_000, p95: 4_000, max: 4_000 },
      failures: [{ reason: 'TIMEOUT', count: 4 }],
    });
    expect(commandOf(ofB, 'day', 'cancel')?.callbacks).toBe(0);
    // An operator with no history at all sees zeros, not someone else's figures.
    const ofC = await healthOf(harness.http.withToken(TOKENS.c));
    expect(ofC.windows.flatMap((window) => window.commands.map((row) => row.callbacks))).toEqual(
      Array<number>(8).fill(0),
    );
  });

  it('refuses a request without a valid token with 401 UNAUTHORIZED', async () => {
    const response = await harness.http.withToken('not-a-token-of-anyone-0000').get('/v1/wallet/health');
    expect(response.status).toBe(401);
    expect(errorEnvelope.parse(response.body).error.code).toBe('UNAUTHORIZED');
  });

  it('moves with the clock: two hours on, the last hour is empty and the day still holds them', async () => {
    harness.clock.advance(2 * HOUR);
    try {
      const health = await healthOf(a);
      expect(commandOf(health, 'hour', 'bet')?.callbacks).toBe(0);
      expect(commandOf(health, 'day', 'bet')?.callbacks).toBe(8);
      harness.clock.advance(23 * HOUR);
      // 25 hours on: only what was answered within the last day, none of the history.
      expect(commandOf(await healthOf(a), 'day', 'bet')?.callbacks).toBe(0);
    } finally {
      harness.clock.set(new Date(NOW));
    }
  });
});

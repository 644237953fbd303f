/**
 * The walletTx record through the command handler, on the embedded event store: an append on a
 * record another writer has moved is not decided again here (the operator was called on what the
 * record said); it is a conflict for the use case, which `retryDispatch` runs again from a fresh load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { walletTxStream, type EventContext } from '@reelstream/contracts';
import { ConcurrencyExhaustedError, deterministicEventId } from '@reelstream/platform-eventsourcing';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { sampleBetRequest } from '@reelstream/testing';
import { retryDispatch, WalletDecisionRefused, WalletTxRepository } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'wallet-tx-repository-'));
const store = SqliteEventStore.open(join(dir, 'events.db'));
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});
const records = new WalletTxRepository(store);

const now = '2026-05-01T10:00:05.000Z';
const context: EventContext = {
  correlationId: 'corr-1',
  causationId: 'wallet.requests:0:41',
  operatorId: 'alpha',
  occurredAt: now,
};
const bet = (transactionId: number) => sampleBetRequest({ transactionId, operatorId: 'alpha', playerId: 'player_1' });
const recordRequest = (transactionId: number) =>
  ({ type: 'RecordRequest', data: { request: bet(transactionId) }, metadata: { now } }) as const;
const startAttempt = { type: 'StartAttempt', data: {}, metadata: { now } } as const;

describe('WalletTxRepository through handleCommand', () => {
  it('appends a batch of commands in one append, its ids hashed from the bus message position', async () => {
    const fresh = await records.load(5001);
    const after = await records.executeAll(fresh, [recordRequest(5001), startAttempt], context);
    expect(after).toMatchObject({ revision: 1, state: { status: 'pending', inFlight: true, attempts: 1 } });
    const stored = await store.readStream(walletTxStream(5001));
    expect(stored.map((event) => event.type)).toEqual(['WalletRequested', 'WalletAttempted']);
    expect(stored[1]?.eventId).toBe(
      deterministicEventId('wallet.requests:0:41', walletTxStream(5001), 'no_stream', 1, stored[1] as never),
    );
    expect(stored[0]?.metadata).toMatchObject({ causationId: 'wallet.requests:0:41', occurredAt: now });
  });

  it('throws a refusal as WalletDecisionRefused and appends nothing', async () => {
    const record = await records.load(5002);
    await expect(records.execute(record, startAttempt, context)).rejects.toBeInstanceOf(WalletDecisionRefused);
    expect(await store.readStream(walletTxStream(5002))).toEqual([]);
  });

  it('leaves a stale record’s conflict to the use case; retryDispatch runs it again from a fresh load', async () => {
    const stale = await records.load(5003);
    await records.execute(stale, recordRequest(5003), { ...context, causationId: 'wallet.requests:0:42' });
    let runs = 0;
    const after = await retryDispatch(5003, async () => {
      // The first run works on the record read before the other writer's append.
      const record = ++runs === 1 ? stale : await records.load(5003);
      return records.executeAll(record, [recordRequest(5003), startAttempt], context);
    });
    expect(runs).toBe(2);
    expect(after).toMatchObject({ revision: 1, state: { attempts: 1, inFlight: true } });
    expect((await store.readStream(walletTxStream(5003))).map((event) => event.type)).toEqual([
      'WalletRequested',
      'WalletAttempted',
    ]);
  });

  it('gives up after five runs that all meet a conflict', async () => {
    const stale = await records.load(5004);
    await records.execute(stale, recordRequest(5004), { ...context, causationId: 'wallet.requests:0:43' });
    let runs = 0;
    const error = await retryDispatch(5004, async () => {
      runs += 1;
      return records.execute(stale, recordRequest(5004), context);
    }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConcurrencyExhaustedError);
    expect(runs).toBe(5);
  });

  it('takes the same message’s append again at the same revision as the append already made (no conflict)', async () => {
    const stale = await records.load(5005);
    const first = await records.execute(stale, recordRequest(5005), context);
    const again = await records.execute(stale, recordRequest(5005), context);
    expect(again).toEqual(first);
    expect(await store.readStream(walletTxStream(5005))).toHaveLength(1);
  });
});

/**
 * The reconciliation read model (docs/adr/0017-reconciliation-projections.md) projected from a real
 * embedded event log written as the services write it: rows keyed by operator, so the same player id
 * under two operators stays two players; a re-driven dead letter leaves its list; and the projection
 * is idempotent by stream revision — every event applied again, in any batching, or the whole log
 * projected again from the start, leaves every row, sequence and checkpoint as they were.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventToAppend, walletTxStream } from '@reelstream/contracts';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import type { RecordedEvent } from '@reelstream/platform-ports';
import { SqliteReconciliationReadModel } from '@reelstream/wallet-adapters';
import {
  reconciliationChange,
  RECONCILIATION_FILTER,
  recordWebhookRedrive,
  webhookLetterStreams,
  startReconciliationProjection,
} from '@reelstream/wallet-application';
import { writePaidRound, writeWebhookLetter, type PaidRound } from './support/wallet-history.js';

let dir: string;
let store: SqliteEventStore;
const models: SqliteReconciliationReadModel[] = [];
const rounds: Record<'a' | 'b', PaidRound[]> = { a: [], b: [] };
const letters: Record<'a' | 'b', string[]> = { a: [], b: [] };

const open = () => {
  const model = SqliteReconciliationReadModel.open(':memory:', {
    comparePositions: (x, y) => store.comparePositions(x, y),
  });
  models.push(model);
  return model;
};

/** Every row of every table and the checkpoint, in a fixed order. */
function dump(model: SqliteReconciliationReadModel) {
  const all = (sql: string) => model.db.prepare(sql).all();
  return {
    // The folded state as data: the order of its keys depends on the batch it was last folded in.
    transactions: all('SELECT * FROM recon_wallet_tx ORDER BY transaction_id').map((row) => {
      const { stored, ...columns } = row as { stored: string };
      return { ...columns, stored: JSON.parse(stored) as unknown };
    }),
    deadLetters: all('SELECT * FROM recon_dead_letters ORDER BY operator_id, seq'),
    webhookLetters: all('SELECT * FROM recon_webhook_letters ORDER BY operator_id, event_id'),
    sequences: all('SELECT * FROM recon_sequences ORDER BY operator_id, list'),
    checkpoint: all('SELECT name, position FROM es_checkpoints'),
  };
}

async function walletAndLetterEvents(): Promise<RecordedEvent[]> {
  return store.readAll({ maxCount: 100_000, filter: RECONCILIATION_FILTER });
}

async function project(model: SqliteReconciliationReadModel): Promise<void> {
  const projection = startReconciliationProjection({ store, projection: model, retryDelayMs: 10 });
  await projection.caughtUp();
  await projection.stop();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recon-projection-'));
  store = SqliteEventStore.open(join(dir, 'reelstream.db'), { synchronous: 'NORMAL' });
  for (let i = 0; i < 3; i++) {
    // The same player ids at both operators, interleaved in the log.
    rounds.a.push(await writePaidRound(store, 'casino-a', `player_${i}`, `2026-05-0${i + 1}T10:00:00.000Z`));
    rounds.b.push(await writePaidRound(store, 'casino-b', `player_${i}`, `2026-05-0${i + 1}T11:00:00.000Z`));
    letters.a.push(await writeWebhookLetter(store, 'casino-a', `player_${i}`));
    letters.b.push(await writeWebhookLetter(store, 'casino-b', `player_${i}`));
  }
  // A's first win re-driven and delivered; A's first webhook letter re-driven.
  const redriven = (rounds.a[0] as PaidRound).winTransactionId;
  const context = {
    correlationId: randomUUID(),
    causationId: randomUUID(),
    operatorId: 'casino-a',
    occurredAt: '2026-05-04T10:00:00.000Z',
  };
  const at = '2026-05-04T10:00:00.000Z';
  await store.append(
    walletTxStream(redriven),
    [
      eventToAppend({ type: 'WalletAttempted', data: { attempt: 4, command: 'win', at } }, context),
      eventToAppend(
        { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 10_150, command: 'win', at } },
        context,
      ),
    ],
    { expectedRevision: 7 },
  );
  const key = { operatorId: 'casino-a', eventId: letters.a[0] as string };
  const read = await webhookLetterStreams.load(store, key);
  if (read.revision === undefined) throw new Error('no letter to re-drive');
  await recordWebhookRedrive(store, key, { state: read.state, revision: read.revision }, { context, at });
});

afterAll(async () => {
  for (const model of models) model.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('rows keyed by operator', () => {
  it("lists each operator's transactions in log order under its own sequence; the same player id stays apart", async () => {
    const model = open();
    await project(model);
    for (const [operator, own] of [
      ['casino-a', rounds.a],
      ['casino-b', rounds.b],
    ] as const) {
      const rows = [...model.transactionRows({ operatorId: operator, afterSeq: 0, maxRows: 100 })];
      expect(rows.map((row) => row.transactionId)).toEqual(
        own.flatMap((r) => [r.betTransactionId, r.winTransactionId]),
      );
      expect(rows.map((row) => row.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(rows.every((row) => row.stored.state.request?.operatorId === operator)).toBe(true);
      const ofPlayer = [
        ...model.transactionRows({ operatorId: operator, playerId: 'player_1', afterSeq: 0, maxRows: 100 }),
      ];
      expect(ofPlayer.map((row) => row.transactionId)).toEqual([own[1]?.betTransactionId, own[1]?.winTransactionId]);
    }
  });

  it('filters by status and by player and status together; pages after a sequence', async () => {
    const model = open();
    await project(model);
    const ids = (rows: { transactionId: number }[]) => rows.map((row) => row.transactionId);
    const dead = [
      ...model.transactionRows({ operatorId: 'casino-a', status: 'dead_lettered', afterSeq: 0, maxRows: 100 }),
    ];
    expect(ids(dead)).toEqual([rounds.a[1]?.winTransactionId, rounds.a[2]?.winTransactionId]);
    const succeeded = [
      ...model.transactionRows({ operatorId: 'casino-a', status: 'succeeded', afterSeq: 0, maxRows: 100 }),
    ];
    expect(ids(succeeded)).toEqual([
      rounds.a[0]?.betTransactionId,
      rounds.a[0]?.winTransactionId,
      rounds.a[1]?.betTransactionId,
      rounds.a[2]?.betTransactionId,
    ]);
    const both = [
      ...model.transactionRows({
        operatorId: 'casino-b',
        playerId: 'player_2',
        status: 'dead_lettered',
        afterSeq: 0,
        maxRows: 100,
      }),
    ];
    expect(ids(both)).toEqual([rounds.b[2]?.winTransactionId]);
    const after = [...model.transactionRows({ operatorId: 'casino-b', afterSeq: 4, maxRows: 1 })];
    expect(ids(after)).toEqual([rounds.b[2]?.betTransactionId]);
  });

  it('keeps standing dead letters and webhook letters per operator; a re-driven one leaves the list', async () => {
    const model = open();
    await project(model);
    expect(model.deadLetterRows('casino-a', 0, 100).map((row) => row.transactionId)).toEqual([
      rounds.a[1]?.winTransactionId,
      rounds.a[2]?.winTransactionId,
    ]);
    expect(model.deadLetterRows('casino-b', 0, 100).map((row) => row.transactionId)).toEqual(
      rounds.b.map((r) => r.winTransactionId),
    );
    const eventIds = (operator: string) =>
      model
        .webhookLetterRows(operator, 0, 100)
        .map((row) => (row.letter as { webhook: { eventId: string } }).webhook.eventId);
    expect(eventIds('casino-a')).toEqual(letters.a.slice(1));
    expect(eventIds('casino-b')).toEqual(letters.b);
    expect(model.deadLetterRows('casino-c', 0, 100)).toEqual([]);
  });
});

describe('idempotent by stream revision', () => {
  it('changes nothing when every event is applied again, one by one or all at once', async () => {
    const model = open();
    await project(model);
    const before = dump(model);
    const events = await walletAndLetterEvents();
    expect(before.checkpoint).toEqual([
      { name: 'gateway.reconciliation-read-model', position: events.at(-1)?.position },
    ]);
    await model.apply(events.map(reconciliationChange));
    for (const event of events) await model.apply([reconciliationChange(event)]);
    expect(dump(model)).toEqual(before);
  });

  it('ends the same however the log is batched and replayed (each batch overlapping the last)', async () => {
    const reference = open();
    await project(reference);
    const model = open();
    const events = await walletAndLetterEvents();
    for (let start = 0; start < events.length; start += 3)
      await model.apply(events.slice(Math.max(0, start - 2), start + 3).map(reconciliationChange));
    expect(dump(model)).toEqual(dump(reference));
  });

  it('ends the same when the checkpoint is lost and the subscription replays the log from the start', async () => {
    const model = open();
    await project(model);
    const before = dump(model);
    model.db.prepare('DELETE FROM es_checkpoints').run();
    await project(model);
    expect(dump(model)).toEqual(before);
  });
});

/**
 * The reconciliation read model on SQLite, fed the changes the projection makes of wallet and
 * webhook-letter events: each operator's transactions, dead letters and webhook letters under the
 * operator's own sequence, never another operator's; the batch's last position as the checkpoint;
 * a reset that empties it for a projection from the start; and a file kept in WAL mode.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { compareDecimalPositions } from '@reelstream/platform-eventstore-sqlite';
import type {
  ReconciliationChange,
  WalletTxChange,
  WalletTxRow,
  WebhookLetterChange,
} from '@reelstream/wallet-application';
import { initialWalletTxState } from '@reelstream/wallet-domain';
import { SqliteReconciliationReadModel } from '../src/index.js';

let dir: string;
const models: SqliteReconciliationReadModel[] = [];

const open = (path = ':memory:') => {
  const model = SqliteReconciliationReadModel.open(path, { comparePositions: compareDecimalPositions });
  models.push(model);
  return model;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'recon-read-model-'));
});

afterAll(() => {
  for (const model of models) if (model.db.open) model.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Positions of the SQLite event store: increasing decimal strings. */
let lastPosition = 0;
const nextPosition = () => String(++lastPosition);

type Listing = NonNullable<WalletTxRow['listing']>;

const listing = (operatorId: string, status: Listing['status'], requestedAt: string): Listing => ({
  operatorId,
  playerId: 'player_1',
  status,
  requestedAtMs: Date.parse(requestedAt),
});

/** The change one event of `walletTx-{transactionId}` makes: the stored state's `attempts` tells the revision. */
function walletTx(
  transactionId: number,
  revision: number,
  row: { listing?: Listing; letterOperators?: string[]; letteredBy?: string } = {},
): WalletTxChange {
  return {
    kind: 'walletTx',
    position: nextPosition(),
    streamId: `walletTx-${transactionId}`,
    revision,
    transactionId,
    project: () => ({
      stored: { folded: true, state: { ...initialWalletTxState, attempts: revision } },
      listing: row.listing,
      letterOperators: row.letterOperators ?? [],
      letteredBy: row.letteredBy,
    }),
  };
}

/** A webhook letter written (`letter` given) or re-driven (no letter). */
function webhookLetter(operatorId: string, eventId: string, revision: number, letter?: unknown): WebhookLetterChange {
  return {
    kind: 'webhookLetter',
    position: nextPosition(),
    streamId: `webhookLetter-${operatorId}-${eventId}`,
    revision,
    operatorId,
    eventId,
    letter,
  };
}

const deadLetters = (model: SqliteReconciliationReadModel, operatorId: string) =>
  model.deadLetterRows(operatorId, 0, 100).map((row) => ({ seq: row.seq, transactionId: row.transactionId }));

const transactions = (model: SqliteReconciliationReadModel, query: { operatorId: string; status?: string }) =>
  [...model.transactionRows({ ...query, afterSeq: 0, maxRows: 100 })].map((row) => ({
    seq: row.seq,
    transactionId: row.transactionId,
    requestedAtMs: row.requestedAtMs,
  }));

describe('dead letters per operator', () => {
  it("lists an operator's dead letters only to that operator, each under its own sequence", async () => {
    const model = open();
    await model.apply([
      walletTx(11, 0, { letterOperators: ['casino-a'], letteredBy: 'casino-a' }),
      walletTx(21, 0, { letterOperators: ['casino-b'], letteredBy: 'casino-b' }),
      walletTx(12, 0, { letterOperators: ['casino-a'], letteredBy: 'casino-a' }),
    ]);
    expect(deadLetters(model, 'casino-a')).toEqual([
      { seq: 1, transactionId: 11 },
      { seq: 2, transactionId: 12 },
    ]);
    expect(deadLetters(model, 'casino-b')).toEqual([{ seq: 1, transactionId: 21 }]);
    expect(deadLetters(model, 'casino-c')).toEqual([]);
  });

  it('keeps a letter in place when a later event of its transaction writes no new letter', async () => {
    const model = open();
    await model.apply([walletTx(11, 0, { letterOperators: ['casino-a'], letteredBy: 'casino-a' })]);
    await model.apply([walletTx(12, 0, { letterOperators: ['casino-a'], letteredBy: 'casino-a' })]);
    await model.apply([walletTx(11, 1, { letterOperators: ['casino-a'] })]);
    expect(deadLetters(model, 'casino-a')).toEqual([
      { seq: 1, transactionId: 11 },
      { seq: 2, transactionId: 12 },
    ]);
    expect(model.deadLetterRows('casino-a', 0, 1)[0]?.stored.state.attempts).toBe(1);
  });

  it("moves a transaction to the end of the operator's list when the operator letters it again", async () => {
    const model = open();
    await model.apply([walletTx(11, 0, { letterOperators: ['casino-a'], letteredBy: 'casino-a' })]);
    await model.apply([walletTx(12, 0, { letterOperators: ['casino-a'], letteredBy: 'casino-a' })]);
    await model.apply([walletTx(11, 1, { letterOperators: ['casino-a'], letteredBy: 'casino-a' })]);
    expect(deadLetters(model, 'casino-a')).toEqual([
      { seq: 2, transactionId: 12 },
      { seq: 3, transactionId: 11 },
    ]);
  });

  it("lists a transaction lettered by two operators to each; one operator's re-drive leaves the other's letter as it was", async () => {
    const model = open();
    await model.apply([walletTx(11, 0, { letterOperators: ['casino-a'], letteredBy: 'casino-a' })]);
    // A stray win of another operator naming the same transaction, dead-lettered in its stream.
    await model.apply([walletTx(11, 1, { letterOperators: ['casino-a', 'casino-b'], letteredBy: 'casino-b' })]);
    expect(deadLetters(model, 'casino-a')).toEqual([{ seq: 1, transactionId: 11 }]);
    expect(deadLetters(model, 'casino-b')).toEqual([{ seq: 1, transactionId: 11 }]);
    await model.apply([walletTx(11, 2, { letterOperators: ['casino-b'] })]);
    expect(deadLetters(model, 'casino-a')).toEqual([]);
    expect(deadLetters(model, 'casino-b')).toEqual([{ seq: 1, transactionId: 11 }]);
  });

  it('lists the letters of a transaction first seen with two of them to both operators', async () => {
    const model = open();
    await model.apply([walletTx(11, 3, { letterOperators: ['casino-a', 'casino-b'], letteredBy: 'casino-b' })]);
    expect(deadLetters(model, 'casino-a')).toEqual([{ seq: 1, transactionId: 11 }]);
    expect(deadLetters(model, 'casino-b')).toEqual([{ seq: 1, transactionId: 11 }]);
  });
});

describe('webhook letters per operator', () => {
  it("lists an operator's standing webhook letters only to it; the same event id at another operator stays apart", async () => {
    const model = open();
    await model.apply([
      webhookLetter('casino-a', 'evt-1', 0, { eventId: 'evt-1', at: 'a' }),
      webhookLetter('casino-b', 'evt-1', 0, { eventId: 'evt-1', at: 'b' }),
      webhookLetter('casino-a', 'evt-2', 0, { eventId: 'evt-2', at: 'a' }),
    ]);
    expect(model.webhookLetterRows('casino-a', 0, 100)).toEqual([
      { seq: 1, letter: { eventId: 'evt-1', at: 'a' } },
      { seq: 2, letter: { eventId: 'evt-2', at: 'a' } },
    ]);
    expect(model.webhookLetterRows('casino-b', 0, 100)).toEqual([{ seq: 1, letter: { eventId: 'evt-1', at: 'b' } }]);
    await model.apply([webhookLetter('casino-a', 'evt-1', 1)]);
    expect(model.webhookLetterRows('casino-a', 0, 100)).toEqual([{ seq: 2, letter: { eventId: 'evt-2', at: 'a' } }]);
    expect(model.webhookLetterRows('casino-b', 0, 100)).toEqual([{ seq: 1, letter: { eventId: 'evt-1', at: 'b' } }]);
    expect(model.webhookLetterRows('casino-c', 0, 100)).toEqual([]);
  });
});

describe('transactions', () => {
  it("lists a transaction with its request's status and time, filtered by status", async () => {
    const model = open();
    await model.apply([
      walletTx(11, 0, { listing: listing('casino-a', 'succeeded', '2026-05-01T10:00:00.000Z') }),
      walletTx(12, 0, { listing: listing('casino-a', 'dead_lettered', '2026-05-01T10:00:01.000Z') }),
      walletTx(21, 0, { listing: listing('casino-b', 'dead_lettered', '2026-05-01T10:00:02.000Z') }),
    ]);
    expect(transactions(model, { operatorId: 'casino-a' })).toEqual([
      { seq: 1, transactionId: 11, requestedAtMs: Date.parse('2026-05-01T10:00:00.000Z') },
      { seq: 2, transactionId: 12, requestedAtMs: Date.parse('2026-05-01T10:00:01.000Z') },
    ]);
    expect(transactions(model, { operatorId: 'casino-a', status: 'dead_lettered' })).toEqual([
      { seq: 2, transactionId: 12, requestedAtMs: Date.parse('2026-05-01T10:00:01.000Z') },
    ]);
    expect(transactions(model, { operatorId: 'casino-b', status: 'succeeded' })).toEqual([]);
  });

  it('does not list a transaction before its request is recorded, though its dead letter stands; lists it once it is', async () => {
    const model = open();
    await model.apply([walletTx(11, 0, { letterOperators: ['casino-a'], letteredBy: 'casino-a' })]);
    expect(transactions(model, { operatorId: 'casino-a' })).toEqual([]);
    expect(deadLetters(model, 'casino-a')).toEqual([{ seq: 1, transactionId: 11 }]);
    await model.apply([
      walletTx(11, 1, {
        listing: listing('casino-a', 'dead_lettered', '2026-05-01T10:00:00.000Z'),
        letterOperators: ['casino-a'],
      }),
    ]);
    expect(transactions(model, { operatorId: 'casino-a', status: 'dead_lettered' })).toEqual([
      { seq: 1, transactionId: 11, requestedAtMs: Date.parse('2026-05-01T10:00:00.000Z') },
    ]);
  });
});

describe('checkpoint', () => {
  it("commits the position of the batch's last change with its rows", async () => {
    const model = open();
    expect(await model.checkpoint()).toBeUndefined();
    const batch: ReconciliationChange[] = [
      walletTx(11, 0, { listing: listing('casino-a', 'succeeded', '2026-05-01T10:00:00.000Z') }),
      { kind: 'skip', position: nextPosition() },
      walletTx(12, 0, { listing: listing('casino-a', 'succeeded', '2026-05-01T10:00:01.000Z') }),
    ];
    await model.apply(batch);
    expect(await model.checkpoint()).toBe(batch[2]?.position);
    await model.apply([]);
    expect(await model.checkpoint()).toBe(batch[2]?.position);
  });
});

describe('reset', () => {
  it('drops every row, sequence and the checkpoint: the same events then project as from the start', async () => {
    const model = open();
    const batch: ReconciliationChange[] = [
      walletTx(11, 0, {
        listing: listing('casino-a', 'dead_lettered', '2026-05-01T10:00:00.000Z'),
        letterOperators: ['casino-a'],
        letteredBy: 'casino-a',
      }),
      webhookLetter('casino-a', 'evt-1', 0, { eventId: 'evt-1' }),
    ];
    const lists = () => ({
      transactions: transactions(model, { operatorId: 'casino-a' }),
      deadLetters: deadLetters(model, 'casino-a'),
      webhookLetters: model.webhookLetterRows('casino-a', 0, 100),
    });
    await model.apply(batch);
    const projected = lists();
    expect(projected).toEqual({
      transactions: [{ seq: 1, transactionId: 11, requestedAtMs: Date.parse('2026-05-01T10:00:00.000Z') }],
      deadLetters: [{ seq: 1, transactionId: 11 }],
      webhookLetters: [{ seq: 1, letter: { eventId: 'evt-1' } }],
    });

    model.reset();
    expect(lists()).toEqual({ transactions: [], deadLetters: [], webhookLetters: [] });
    expect(await model.checkpoint()).toBeUndefined();
    expect(model.db.prepare('SELECT count(*) FROM recon_wallet_tx').pluck().get()).toBe(0);

    // Projected again from the first event: the same rows under the same sequences.
    await model.apply(batch);
    expect(lists()).toEqual(projected);
    expect(await model.checkpoint()).toBe(batch[1]?.position);
  });
});

describe('file', () => {
  it('keeps a file in WAL mode and its rows and checkpoint across a reopen; `:memory:` keeps its journal in memory', async () => {
    const path = join(dir, 'reconciliation.db');
    const model = open(path);
    expect(model.db.pragma('journal_mode', { simple: true })).toBe('wal');
    const change = walletTx(11, 0, { listing: listing('casino-a', 'succeeded', '2026-05-01T10:00:00.000Z') });
    await model.apply([change]);
    model.close();

    const reopened = open(path);
    expect(reopened.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(await reopened.checkpoint()).toBe(change.position);
    expect(transactions(reopened, { operatorId: 'casino-a' }).map((row) => row.transactionId)).toEqual([11]);

    expect(open().db.pragma('journal_mode', { simple: true })).toBe('memory');
  });
});

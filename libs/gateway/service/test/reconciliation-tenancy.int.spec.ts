/**
 * Tenancy of the reconciliation API (decisions.md D18): operator B sees nothing of
 * operator A's rounds, transactions and dead letters — each is the same 404 as an id never used,
 * or an empty list — and cannot re-drive A's dead letter (nothing is sent, nothing is appended).
 * The history is written as the game-server and the dispatcher write it (support/wallet-history.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  errorEnvelope,
  eventToAppend,
  listDeadLettersResponse,
  listTransactionsResponse,
  roundStream,
  walletTxStream,
} from '@reelstream/contracts';
import { paidRoundWin } from '@reelstream/testing';
import type { HttpClient } from './support/http-client.js';
import { startHarness, type Harness } from './support/harness.js';
import { OPERATOR_IDS, TOKENS } from './support/operators.js';
import { cursorAndLimitRefusals, expectRefusedQuery, pageThrough, type QueryRefusal } from './support/paged-lists.js';
import { writePaidRound, type PaidRound } from './support/wallet-history.js';

let harness: Harness;
let a: HttpClient;
let b: HttpClient;
let ofA: PaidRound;
let ofB: PaidRound;

beforeAll(async () => {
  harness = await startHarness({ config: { redriveTimeoutMs: 1_000 } });
  a = harness.http.withToken(TOKENS.a);
  b = harness.http.withToken(TOKENS.b);
  // The same playerId at both operators: a player id belongs to its operator.
  ofA = await writePaidRound(harness.store, OPERATOR_IDS.a, 'shared_player', '2026-05-01T10:00:00.000Z');
  ofB = await writePaidRound(harness.store, OPERATOR_IDS.b, 'shared_player', '2026-05-01T11:00:00.000Z');
});
afterAll(async () => {
  await harness.close();
});

/** The body without the id it names, to compare "another operator's" with "never used". */
const withoutId = (body: { message: string }, id: number) => ({
  ...body,
  message: body.message.replace(String(id), '{id}'),
});

describe('GET /v1/rounds/{roundId}', () => {
  it("reads the operator's own round with its bet and dead-lettered win", async () => {
    const response = await a.get(`/v1/rounds/${ofA.roundId}`);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      roundId: ofA.roundId,
      playerId: 'shared_player',
      status: 'settled',
      bet: 1,
      win: 2.5,
      transactions: [
        {
          transactionId: ofA.betTransactionId,
          command: 'bet',
          amount: -1,
          status: 'succeeded',
          attempts: 1,
          balance: 99,
        },
        {
          transactionId: ofA.winTransactionId,
          command: 'win',
          amount: 2.5,
          status: 'dead_lettered',
          attempts: 3,
          lastError: 'timeout',
        },
      ],
    });
  });

  it("answers another operator's round 404 ROUND_NOT_FOUND, the same as a round that does not exist", async () => {
    const theirs = await b.get(`/v1/rounds/${ofA.roundId}`);
    const nobodys = await b.get(`/v1/rounds/${ofA.roundId + 100}`);
    expect([theirs.status, nobodys.status]).toEqual([404, 404]);
    expect(errorEnvelope.parse(theirs.body).error.code).toBe('ROUND_NOT_FOUND');
    expect(withoutId(theirs.body, ofA.roundId)).toEqual(withoutId(nobodys.body, ofA.roundId + 100));
    expect(theirs.text).not.toContain('shared_player');
  });
});

describe('GET /v1/transactions', () => {
  it("lists only the caller's transactions, whatever the filter", async () => {
    for (const query of ['', '?playerId=shared_player', '?status=dead_lettered', '?from=2026-05-01T00:00:00.000Z']) {
      const mine = listTransactionsResponse.parse((await a.get(`/v1/transactions${query}`)).body).data;
      const ids = mine.items.map((tx) => tx.transactionId);
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.every((id) => id === ofA.betTransactionId || id === ofA.winTransactionId)).toBe(true);
      const theirs = listTransactionsResponse.parse((await b.get(`/v1/transactions${query}`)).body).data;
      expect(
        theirs.items.every(
          (tx) => tx.transactionId === ofB.betTransactionId || tx.transactionId === ofB.winTransactionId,
        ),
      ).toBe(true);
    }
    const c = harness.http.withToken(TOKENS.c);
    expect((await c.get('/v1/transactions')).body.data).toEqual({ items: [], nextCursor: null });
  });

  it("does not show A's transactions after a cursor B got from its own page", async () => {
    const first = listTransactionsResponse.parse((await b.get('/v1/transactions?limit=1')).body).data;
    expect(first.nextCursor).not.toBeNull();
    const rest = listTransactionsResponse.parse((await b.get(`/v1/transactions?cursor=${first.nextCursor}`)).body).data;
    expect(rest.items.map((tx) => tx.transactionId)).toEqual([ofB.winTransactionId]);
  });
});

describe('GET /v1/transactions with a bad query', () => {
  it.each([
    ...cursorAndLimitRefusals,
    ['to not after from', '?from=2026-05-02T00:00:00.000Z&to=2026-05-01T00:00:00.000Z', 'to', 'VALIDATION_FAILED'],
    ['a local time', '?from=2026-05-01T00:00:00', 'from', 'VALIDATION_FAILED'],
    ['an unknown status', '?status=lost', 'status', 'VALIDATION_FAILED'],
    ['an unknown parameter', '?player=shared_player', 'player', 'VALIDATION_FAILED'],
    ['a repeated parameter', '?playerId=a&playerId=b', 'playerId', 'VALIDATION_FAILED'],
  ] satisfies QueryRefusal[])('refuses %s: 400 naming the parameter', async (_name, query, path, code) => {
    await expectRefusedQuery(a, `/v1/transactions${query}`, path, code);
  });
});

describe('GET /v1/wallet/dead-letters', () => {
  it("lists each operator's own dead letters only", async () => {
    const mine = (await a.get('/v1/wallet/dead-letters')).body.data.items as {
      transaction: { transactionId: number };
    }[];
    const theirs = (await b.get('/v1/wallet/dead-letters')).body.data.items as {
      transaction: { transactionId: number };
    }[];
    expect(mine.map((letter) => letter.transaction.transactionId)).toEqual([ofA.winTransactionId]);
    expect(theirs.map((letter) => letter.transaction.transactionId)).toEqual([ofB.winTransactionId]);
    expect((await harness.http.withToken(TOKENS.c).get('/v1/wallet/dead-letters')).body.data).toEqual({
      items: [],
      nextCursor: null,
    });
  });
});

describe('POST /v1/wallet/dead-letters/{transactionId}/redrive', () => {
  it("answers another operator's dead letter 404 TRANSACTION_NOT_FOUND, sends nothing and appends nothing", async () => {
    const events = await harness.eventCount();
    const theirs = await b.call('POST', `/v1/wallet/dead-letters/${ofA.winTransactionId}/redrive`);
    const nobodys = await b.call('POST', `/v1/wallet/dead-letters/${ofA.winTransactionId + 100}/redrive`);
    expect([theirs.status, nobodys.status]).toEqual([404, 404]);
    expect(errorEnvelope.parse(theirs.body).error.code).toBe('TRANSACTION_NOT_FOUND');
    expect(withoutId(theirs.body, ofA.winTransactionId)).toEqual(withoutId(nobodys.body, ofA.winTransactionId + 100));
    expect(await harness.eventCount()).toBe(events);
    expect((await a.get('/v1/wallet/dead-letters')).body.data.items).toHaveLength(1);
  });

  it('answers 503 when no dispatcher answers, and the letter stays', async () => {
    const response = await a.call('POST', `/v1/wallet/dead-letters/${ofA.winTransactionId}/redrive`);
    expect(response.status).toBe(503);
    expect(errorEnvelope.parse(response.body).error.code).toBe('SERVICE_UNAVAILABLE');
    expect(response.headers.get('retry-after')).toBe('5');
    expect((await a.get('/v1/wallet/dead-letters')).body.data.items).toHaveLength(1);
  });
});

describe('GET /v1/wallet/dead-letters, page by page', () => {
  const idsOf = (items: { transaction: { transactionId: number } }[]) =>
    items.map((item) => item.transaction.transactionId);
  const page = async (client: HttpClient, query: string) => {
    const response = await client.get(`/v1/wallet/dead-letters${query}`);
    expect(response.status).toBe(200);
    return listDeadLettersResponse.parse(response.body).data;
  };

  it('pages in the order the wins were dead-lettered, each once, to an empty page past the last', async () => {
    const more: PaidRound[] = [];
    for (const at of ['2026-05-02T10:00:00.000Z', '2026-05-02T11:00:00.000Z', '2026-05-02T12:00:00.000Z'])
      more.push(await writePaidRound(harness.store, OPERATOR_IDS.a, `paged_${more.length}`, at));
    // B's letters written in between do not show in A's pages, nor move them.
    await writePaidRound(harness.store, OPERATOR_IDS.b, 'paged_b', '2026-05-02T13:00:00.000Z');
    const expected = [ofA, ...more].map((round) => round.winTransactionId);
    expect(idsOf((await page(a, '')).items)).toEqual(expected);

    const { items: seen, pages } = await pageThrough((query) => page(a, query), 2);
    expect(idsOf(seen)).toEqual(expected);
    expect(pages).toBe(2); // two full pages; the last one says nothing follows

    const first = await page(a, '?limit=3');
    expect(first.nextCursor).not.toBeNull();
    const rest = await page(a, `?cursor=${first.nextCursor}`);
    expect([idsOf(rest.items), rest.nextCursor]).toEqual([expected.slice(3), null]);
    expect((await page(a, '?limit=4')).nextCursor).toBeNull();
  });

  it("refuses A's cursor from B (400 CURSOR_INVALID) and pages B's own after its own", async () => {
    const ofAFirst = await page(a, '?limit=1');
    await expectRefusedQuery(b, `/v1/wallet/dead-letters?cursor=${ofAFirst.nextCursor}`, 'cursor', 'CURSOR_INVALID');
    const ofBFirst = await page(b, '?limit=1');
    expect(idsOf(ofBFirst.items)).toEqual([ofB.winTransactionId]);
    expect(idsOf((await page(b, `?cursor=${ofBFirst.nextCursor}`)).items)).not.toContain(ofA.winTransactionId);
  });

  it.each([
    ...cursorAndLimitRefusals,
    ['an unknown parameter', '?playerId=shared_player', 'playerId', 'VALIDATION_FAILED'],
    ['a repeated parameter', '?limit=1&limit=2', 'limit', 'VALIDATION_FAILED'],
  ] satisfies QueryRefusal[])('refuses %s: 400 naming the parameter', async (_name, query, path, code) => {
    await expectRefusedQuery(a, `/v1/wallet/dead-letters${query}`, path, code);
  });
});

describe('GET /v1/wallet/dead-letters: one stream holding the letters of two operators', () => {
  it("lists to each operator its own letter only: A's win to A, B's win that named A's transactionId to B", async () => {
    const round = await writePaidRound(harness.store, OPERATOR_IDS.a, 'clash_a', '2026-05-03T10:00:00.000Z');
    const transactionId = round.winTransactionId;
    // B's win was given the transactionId A's win holds: dead-lettered beside it as a conflict, never sent.
    const at = '2026-05-03T10:10:00.000Z';
    const strayRound = transactionId + 1_000;
    const stray = paidRoundWin(
      { stream: roundStream(strayRound), revision: 1, eventId: randomUUID() },
      {
        operatorId: OPERATOR_IDS.b,
        playerId: 'clash_b',
        roundId: strayRound,
        transactionId,
        currency: 'KRW',
        amountMinor: 7_000,
        requestedAt: at,
      },
    );
    const context = {
      correlationId: randomUUID(),
      causationId: randomUUID(),
      operatorId: OPERATOR_IDS.b,
      occurredAt: at,
    };
    const lastError = `transactionId ${transactionId} names another request`;
    await harness.store.append(
      walletTxStream(transactionId),
      [
        eventToAppend(
          {
            type: 'WinDeadLettered',
            data: { attempts: 0, lastError, at, reason: 'transaction_id_conflict', request: stray },
          },
          context,
        ),
      ],
      { expectedRevision: 7 },
    );
    const lettersOf = async (client: HttpClient) => {
      const response = await client.get('/v1/wallet/dead-letters?limit=500');
      expect(response.status).toBe(200);
      const { items } = listDeadLettersResponse.parse(response.body).data;
      return items.filter((item) => item.transaction.transactionId === transactionId);
    };

    const ofA = await lettersOf(a);
    expect(ofA).toHaveLength(1);
    expect(ofA[0]).toMatchObject({
      reason: 'delivery_failed',
      deadLetteredAt: '2026-05-03T10:00:00.000Z',
      transaction: {
        playerId: 'clash_a',
        currency: 'EUR',
        amount: 2.5,
        status: 'dead_lettered',
        attempts: 3,
        lastError: 'timeout',
        nextRedriveAt: '2026-05-03T10:05:00.000Z',
      },
    });
    expect(JSON.stringify(ofA)).not.toContain('clash_b');

    const ofB = await lettersOf(b);
    expect(ofB).toEqual([
      {
        reason: 'transaction_id_conflict',
        deadLetteredAt: at,
        transaction: {
          transactionId,
          roundId: strayRound,
          playerId: 'clash_b',
          providerId: 1,
          gameId: 101,
          command: 'win',
          currency: 'KRW',
          amount: 7_000,
          bonusId: 0,
          requestedAt: at,
          status: 'dead_lettered',
          attempts: 0,
          lastError,
          balance: null,
          cancel: null,
          nextRedriveAt: null,
        },
      },
    ]);
    expect(JSON.stringify(ofB)).not.toContain('clash_a');
    expect(await lettersOf(harness.http.withToken(TOKENS.c))).toEqual([]);
  });
});

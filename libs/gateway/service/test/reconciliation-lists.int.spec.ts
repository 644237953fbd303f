/**
 * The reconciliation lists over HTTP, served from the read model (docs/adr/0017-reconciliation-projections.md):
 * filters by player and status never show another operator's rows (the same player ids at both);
 * a time filter reads a bounded number of rows per request and answers a cursor when the bound is
 * hit; cursors carry nothing readable of the log and open only for the operator and list they were
 * given for — another operator's, another list's, an altered one: 400 CURSOR_INVALID, nothing shown.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { errorEnvelope, listTransactionsResponse, type OperatorTransaction } from '@reelstream/contracts';
import type { HttpClient } from './support/http-client.js';
import { startHarness, type Harness } from './support/harness.js';
import { OPERATOR_IDS, TOKENS } from './support/operators.js';
import { expectRefusedQuery, pageThrough } from './support/paged-lists.js';
import { writePaidRound, type PaidRound } from './support/wallet-history.js';

const ROW_BOUND = 4;
let harness: Harness;
let a: HttpClient;
let b: HttpClient;
const ofA: PaidRound[] = [];
const ofB: PaidRound[] = [];
const playerOf = (i: number) => (i % 2 === 0 ? 'p_even' : 'p_odd');
const dayOf = (i: number) => `2026-05-0${i + 1}T10:00:00.000Z`;

beforeAll(async () => {
  harness = await startHarness({ config: { listRowBound: ROW_BOUND } });
  a = harness.http.withToken(TOKENS.a);
  b = harness.http.withToken(TOKENS.b);
  for (let i = 0; i < 6; i++) {
    ofA.push(await writePaidRound(harness.store, OPERATOR_IDS.a, playerOf(i), dayOf(i)));
    ofB.push(await writePaidRound(harness.store, OPERATOR_IDS.b, playerOf(i), dayOf(i)));
  }
});
afterAll(async () => {
  await harness.close();
});

const list = async (client: HttpClient, query: string) => {
  const response = await client.get(`/v1/transactions${query}`);
  expect(response.status).toBe(200);
  return listTransactionsResponse.parse(response.body).data;
};
const ids = (items: OperatorTransaction[]) => items.map((item) => item.transactionId);
const bets = (rounds: PaidRound[]) => rounds.map((round) => round.betTransactionId);
const wins = (rounds: PaidRound[]) => rounds.map((round) => round.winTransactionId);
const both = (rounds: PaidRound[]) => rounds.flatMap((round) => [round.betTransactionId, round.winTransactionId]);
const even = (rounds: PaidRound[]) => rounds.filter((_, i) => i % 2 === 0);

describe('filters, by index, per operator', () => {
  it("lists a player's transactions of the caller only, though the other operator has a player of that id", async () => {
    expect(ids((await list(a, '?playerId=p_even')).items)).toEqual(both(even(ofA)));
    expect(ids((await list(b, '?playerId=p_even')).items)).toEqual(both(even(ofB)));
    expect((await list(harness.http.withToken(TOKENS.c), '?playerId=p_even')).items).toEqual([]);
  });

  it('lists by status, and by player and status together', async () => {
    expect(ids((await list(a, '?status=dead_lettered')).items)).toEqual(wins(ofA));
    expect(ids((await list(b, '?status=succeeded')).items)).toEqual(bets(ofB));
    expect(ids((await list(a, '?playerId=p_odd&status=succeeded')).items)).toEqual(bets(ofA.filter((_, i) => i % 2)));
    expect((await list(a, '?status=failed')).items).toEqual([]);
  });

  it('pages a filtered list by its cursors to a last page whose nextCursor is null', async () => {
    const { items, pages } = await pageThrough((query) => list(a, `${query}&playerId=p_odd`), 2);
    expect(ids(items)).toEqual(both(ofA.filter((_, i) => i % 2)));
    expect(pages).toBe(3);
  });
});

describe('a bounded read per request', () => {
  it('reads at most the bound of rows while a time filter skips them, and answers a cursor to go on', async () => {
    const first = await list(a, `?limit=2&from=${dayOf(5)}`);
    // The first ROW_BOUND rows of A are all before the last day: none listed, but a cursor to go on.
    expect(first).toMatchObject({ items: [] });
    expect(first.nextCursor).not.toBeNull();
    const { items, pages } = await pageThrough((query) => list(a, `${query}&from=${dayOf(5)}`), 2);
    expect(ids(items)).toEqual(both(ofA.slice(5)));
    expect(pages).toBe(Math.ceil((2 * ofA.length) / ROW_BOUND));
  });
});

describe('a time window', () => {
  it('lists the rows from `from` up to, not including, `to`: a row at `to` exactly is outside', async () => {
    const page = await list(a, `?from=${dayOf(1)}&to=${dayOf(3)}`);
    expect([ids(page.items), page.nextCursor]).toEqual([both(ofA.slice(1, 3)), null]);
    expect(ids((await list(b, `?to=${dayOf(1)}`)).items)).toEqual(both(ofB.slice(0, 1)));
  });

  it('holds a page to `limit` rows, and answers a cursor where it filled', async () => {
    const first = await list(a, `?limit=2&from=${dayOf(0)}`);
    expect(ids(first.items)).toEqual(both(ofA.slice(0, 1)));
    expect(first.nextCursor).not.toBeNull();
    const { items, pages } = await pageThrough((query) => list(a, `${query}&from=${dayOf(0)}`), 2);
    expect(ids(items)).toEqual(both(ofA));
    expect(pages).toBe(ofA.length);
  });

  it('reads the bound of rows per request under `to` alone, as under `from`', async () => {
    const { items, pages } = await pageThrough((query) => list(a, `${query}&to=${dayOf(1)}`), 3);
    expect(ids(items)).toEqual(both(ofA.slice(0, 1)));
    expect(pages).toBe(Math.ceil((2 * ofA.length) / ROW_BOUND));
  });
});

describe('cursors: opaque, per operator and list', () => {
  it('carry nothing of the log: not the position of the last row, in any encoding', async () => {
    // Eleven rows: the last one is A's sixth bet, well into the log (a position of three digits).
    const page = await list(a, '?limit=11');
    expect(ids(page.items).at(-1)).toBe(ofA[5]?.betTransactionId);
    const cursor = page.nextCursor as string;
    const events = await harness.store.readAll({ maxCount: 10_000 });
    const requested = events.find(
      (event) => event.type === 'WalletRequested' && event.streamId.endsWith(`-${ofA[5]?.betTransactionId}`),
    );
    const position = String(requested?.position);
    expect(Number(position)).toBeGreaterThan(100);
    const bytes = Buffer.from(cursor, 'base64url');
    const asNumber = Buffer.alloc(8);
    asNumber.writeBigUInt64BE(BigInt(position));
    expect(bytes.includes(asNumber)).toBe(false);
    expect(bytes.toString('latin1')).not.toContain(position);
    expect(cursor).not.toContain(Buffer.from(position).toString('base64url'));
    const again = await list(a, '?limit=11');
    expect(again.nextCursor).not.toBe(cursor);
    expect(ids((await list(a, `?limit=1&cursor=${again.nextCursor}`)).items)).toEqual([ofA[5]?.winTransactionId]);
  });

  it("refuses A's cursor from B with 400 CURSOR_INVALID in the error envelope, showing nothing of A", async () => {
    const cursor = (await list(a, '?limit=1')).nextCursor as string;
    const response = await b.get(`/v1/transactions?cursor=${cursor}`);
    expect(response.status).toBe(400);
    const envelope = errorEnvelope.parse(response.body);
    expect(envelope).toMatchObject({ success: false, data: null, error: { code: 'CURSOR_INVALID' } });
    expect(response.text).not.toContain(String(ofA[0]?.winTransactionId));
    expect(response.text).not.toContain('p_even');
  });

  it('refuses a cursor of another list, and one altered by a single character', async () => {
    const cursor = (await list(a, '?limit=1')).nextCursor as string;
    await expectRefusedQuery(a, `/v1/wallet/dead-letters?cursor=${cursor}`, 'cursor', 'CURSOR_INVALID');
    await expectRefusedQuery(a, `/v1/webhooks/dead-letters?cursor=${cursor}`, 'cursor', 'CURSOR_INVALID');
    const last = cursor.at(-5) === 'A' ? 'B' : 'A';
    const altered = `${cursor.slice(0, -5)}${last}${cursor.slice(-4)}`;
    await expectRefusedQuery(a, `/v1/transactions?cursor=${altered}`, 'cursor', 'CURSOR_INVALID');
  });
});

/**
 * What the tests of the paged lists (GET /v1/transactions, /v1/wallet/dead-letters,
 * /v1/webhooks/dead-letters) share: the refusals of `cursor` and `limit`, the 400 they answer, and
 * reading a list page after page by its cursors.
 */
import { expect } from '@jest/globals';
import { errorEnvelope } from '@reelstream/contracts';
import type { HttpClient } from './http-client.js';

/** A 400 of a paged list: [name, query, parameter named in the 400, its code]. */
export type QueryRefusal = readonly [string, string, string, 'VALIDATION_FAILED' | 'CURSOR_INVALID'];

/** A bad `cursor` or `limit`: every paged list refuses these. */
export const cursorAndLimitRefusals: readonly QueryRefusal[] = [
  ['a cursor that is not base64url', '?cursor=not%20a%20cursor', 'cursor', 'VALIDATION_FAILED'],
  [
    'a cursor of the earlier kind (a log position in base64url)',
    `?cursor=${Buffer.from('12345').toString('base64url')}`,
    'cursor',
    'CURSOR_INVALID',
  ],
  ['a made-up cursor of the right length and version', `?cursor=AQ${'A'.repeat(48)}`, 'cursor', 'CURSOR_INVALID'],
  ['limit 0', '?limit=0', 'limit', 'VALIDATION_FAILED'],
  ['limit 501', '?limit=501', 'limit', 'VALIDATION_FAILED'],
];

/** GET `url` answers 400 with `code` (VALIDATION_FAILED unless told) and a detail naming `parameter`. */
export async function expectRefusedQuery(
  client: HttpClient,
  url: string,
  parameter: string,
  code: QueryRefusal[3] = 'VALIDATION_FAILED',
): Promise<void> {
  const response = await client.get(url);
  expect(response.status).toBe(400);
  const envelope = errorEnvelope.parse(response.body);
  expect(envelope.error.code).toBe(code);
  expect(envelope.error.details?.map((detail) => detail.path)).toContain(parameter);
}

/**
 * Every item of a list read `limit` at a time, following `nextCursor` until it is null (at most 10
 * pages), and the number of pages read.
 */
export async function pageThrough<Item>(
  read: (query: string) => Promise<{ items: Item[]; nextCursor: string | null }>,
  limit: number,
): Promise<{ items: Item[]; pages: number }> {
  const items: Item[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const current = await read(`?limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`);
    items.push(...current.items);
    cursor = current.nextCursor;
    pages += 1;
  } while (cursor !== null && pages < 10);
  return { items, pages };
}

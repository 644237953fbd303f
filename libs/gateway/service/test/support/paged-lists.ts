/**
 * What the tests of the paged lists (GET /v1/transactions, /v1/wallet/dead-letters,
 * /v1/webhooks/dead-letters) share: the refusals of `cursor` and `limit`, the 400 they answer, and
 * reading a list page after page by its cursors.
 */
import { expect } from '@jest/globals';
import { errorEnvelope } from '@reelstream/contracts';
import type { HttpClient } from './http-client.js';

/** A bad `cursor` or `limit`, as [name, query, parameter named in the 400]: every paged list refuses these. */
export const cursorAndLimitRefusals: readonly (readonly [string, string, string])[] = [
  ['a cursor that is not base64url', '?cursor=not%20a%20cursor', 'cursor'],
  [
    'a cursor beyond the end of the log',
    `?cursor=${Buffer.from('99999999999999999999').toString('base64url')}`,
    'cursor',
  ],
  ['a cursor that is no position', `?cursor=${Buffer.from('-1').toString('base64url')}`, 'cursor'],
  ['limit 0', '?limit=0', 'limit'],
  ['limit 501', '?limit=501', 'limit'],
];

/** GET `url` answers 400 VALIDATION_FAILED with a detail naming `parameter`. */
export async function expectRefusedQuery(client: HttpClient, url: string, parameter: string): Promise<void> {
  const response = await client.get(url);
  expect(response.status).toBe(400);
  const envelope = errorEnvelope.parse(response.body);
  expect(envelope.error.code).toBe('VALIDATION_FAILED');
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

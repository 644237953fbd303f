/**
 * Dead-lettered bonus webhooks over the operator API: `GET /v1/webhooks/dead-letters`
 * pages the caller's own letters only; `POST /v1/webhooks/dead-letters/{eventId}/redrive` sends the
 * caller's letter back to `bonus.webhooks` once (a second re-drive sends nothing), and answers another
 * operator's letter 404 WEBHOOK_NOT_FOUND like an unknown one, sending and appending nothing. The
 * letters are written as the wallet-dispatcher writes them (support/wallet-history.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  bonusWebhookMessage,
  errorEnvelope,
  listWebhookDeadLettersResponse,
  Topics,
  webhookRedriveResponse,
} from '@reelstream/contracts';
import type { Consumer, Message } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import type { HttpClient } from './support/http-client.js';
import { startHarness, type Harness } from './support/harness.js';
import { OPERATOR_IDS, TOKENS } from './support/operators.js';
import { cursorAndLimitRefusals, expectRefusedQuery, pageThrough, type QueryRefusal } from './support/paged-lists.js';
import { writeWebhookLetter } from './support/wallet-history.js';

let harness: Harness;
let a: HttpClient;
let b: HttpClient;
let ofA: string[];
let ofB: string;
let consumer: Consumer;
const sent: Message[] = [];

beforeAll(async () => {
  harness = await startHarness();
  a = harness.http.withToken(TOKENS.a);
  b = harness.http.withToken(TOKENS.b);
  ofA = [];
  for (const at of ['2026-05-01T10:00:00.000Z', '2026-05-01T11:00:00.000Z', '2026-05-01T12:00:00.000Z'])
    ofA.push(await writeWebhookLetter(harness.store, OPERATOR_IDS.a, 'shared_player', at));
  // The same playerId at B, written between A's: B's letters neither show in A's pages nor move them.
  ofB = await writeWebhookLetter(harness.store, OPERATOR_IDS.b, 'shared_player', '2026-05-01T11:30:00.000Z');
  ofA.push(await writeWebhookLetter(harness.store, OPERATOR_IDS.a, 'shared_player', '2026-05-01T13:00:00.000Z'));
  consumer = await harness.bus.subscribe({
    groupId: 'test.webhooks',
    topics: [Topics.bonusWebhooks],
    handler: async (message) => {
      sent.push(message);
    },
  });
  await consumer.ready;
});
afterAll(async () => {
  await consumer?.stop();
  await harness.close();
});

const page = async (client: HttpClient, query = '') => {
  const response = await client.get(`/v1/webhooks/dead-letters${query}`);
  expect(response.status).toBe(200);
  return listWebhookDeadLettersResponse.parse(response.body).data;
};
const idsOf = (items: { eventId: string }[]) => items.map((item) => item.eventId);

describe('GET /v1/webhooks/dead-letters', () => {
  it("lists each operator's own letters only, in the order they were dead-lettered, with the body sent again", async () => {
    const mine = await page(a);
    expect(idsOf(mine.items)).toEqual(ofA);
    expect(mine.nextCursor).toBeNull();
    expect(mine.items[0]).toMatchObject({
      eventId: ofA[0],
      attempts: 10,
      lastError: 'HTTP 503',
      deadLetteredAt: '2026-05-01T10:00:00.000Z',
      webhook: { eventId: ofA[0], type: 'bonus.registered', playerId: 'shared_player' },
    });
    expect(idsOf((await page(b)).items)).toEqual([ofB]);
    expect((await page(harness.http.withToken(TOKENS.c))).items).toEqual([]);
  });

  it('pages by cursor and limit to the last page (nextCursor null); A’s cursor is refused from B', async () => {
    const { items: seen, pages } = await pageThrough((query) => page(a, query), 2);
    expect(idsOf(seen)).toEqual(ofA);
    expect(pages).toBe(Math.ceil(ofA.length / 2));
    const first = await page(a, '?limit=1');
    await expectRefusedQuery(b, `/v1/webhooks/dead-letters?cursor=${first.nextCursor}`, 'cursor', 'CURSOR_INVALID');
  });

  it.each([
    ...cursorAndLimitRefusals,
    ['an unknown parameter', '?playerId=shared_player', 'playerId', 'VALIDATION_FAILED'],
  ] satisfies QueryRefusal[])('refuses %s: 400 naming the parameter', async (_name, query, path, code) => {
    await expectRefusedQuery(a, `/v1/webhooks/dead-letters${query}`, path, code);
  });
});

describe('POST /v1/webhooks/dead-letters/{eventId}/redrive', () => {
  it("answers another operator's letter 404 WEBHOOK_NOT_FOUND like an unknown one; sends and appends nothing", async () => {
    const events = await harness.eventCount();
    const theirs = await b.call('POST', `/v1/webhooks/dead-letters/${ofA[0]}/redrive`);
    const unknown = `bw-${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`;
    const nobodys = await b.call('POST', `/v1/webhooks/dead-letters/${unknown}/redrive`);
    expect([theirs.status, nobodys.status]).toEqual([404, 404]);
    expect(errorEnvelope.parse(theirs.body).error.code).toBe('WEBHOOK_NOT_FOUND');
    expect({ ...theirs.body, message: theirs.body.message.replace(ofA[0], '{id}') }).toEqual({
      ...nobodys.body,
      message: nobodys.body.message.replace(unknown, '{id}'),
    });
    expect(await harness.eventCount()).toBe(events);
    // A fixed wait on purpose: proves that no further webhook is sent within it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sent).toEqual([]);
  });

  it('refuses an eventId that is no webhook event id: 400 VALIDATION_FAILED', async () => {
    const response = await a.call('POST', '/v1/webhooks/dead-letters/not-an-id/redrive');
    expect(response.status).toBe(400);
    expect(errorEnvelope.parse(response.body).error.code).toBe('VALIDATION_FAILED');
  });

  it('sends the caller’s letter back to bonus.webhooks once, with its key and body; a second re-drive sends nothing', async () => {
    const eventId = ofA[1] ?? '';
    const first = await a.call('POST', `/v1/webhooks/dead-letters/${eventId}/redrive`);
    expect(first.status).toBe(200);
    expect(webhookRedriveResponse.parse(first.body).data).toMatchObject({
      result: 'redriven',
      deadLetter: { eventId },
    });
    await eventually(() => expect(sent).toHaveLength(1));
    const message = sent[0] as Message;
    const { operatorId, webhook } = bonusWebhookMessage.parse(message.value);
    expect(operatorId).toBe(OPERATOR_IDS.a);
    expect(webhook).toEqual(webhookRedriveResponse.parse(first.body).data.deadLetter.webhook);
    expect(message.key).toBe(`${OPERATOR_IDS.a}:${webhook.bonusId}`);
    expect(idsOf((await page(a)).items)).toEqual(ofA.filter((id) => id !== eventId));

    const again = await a.call('POST', `/v1/webhooks/dead-letters/${eventId}/redrive`);
    expect(webhookRedriveResponse.parse(again.body).data.result).toBe('already_redriven');
    const racing = await Promise.all(
      [0, 1, 2].map(() => a.call('POST', `/v1/webhooks/dead-letters/${ofA[2] ?? ''}/redrive`)),
    );
    expect(racing.map((response) => webhookRedriveResponse.parse(response.body).data.result).sort()).toEqual([
      'already_redriven',
      'already_redriven',
      'redriven',
    ]);
    await eventually(() => {
      if (sent.length < 2)
        throw new Error(`waited for the raced re-drive's webhook on bonus.webhooks; sent ${sent.length}`);
    });
    // A fixed wait on purpose: proves that no further webhook is sent within it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sent).toHaveLength(2);
  });
});

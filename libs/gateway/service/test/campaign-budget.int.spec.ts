/**
 * The campaign budget (docs/adr/0014-fair-campaigns-and-campaign-budget.md) on the real gateway and
 * embedded store: a campaign of N players takes N tokens of its operator's budget; a campaign the
 * budget cannot pay for now is 429 RATE_LIMITED with the spec's envelope and a Retry-After, and
 * stores nothing; a resend costs nothing; another operator's budget is its own; a campaign larger
 * than the budget passes when the budget is full and leaves it in debt.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { errorEnvelope, startCampaignResponse } from '@reelstream/contracts';
import { startHarness, type Harness } from './support/harness.js';
import { TOKENS } from './support/operators.js';
import { campaignBody } from './support/registrations.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ config: { campaignRateLimit: { perSecond: 10, burst: 50 } } });
});
afterAll(async () => {
  await harness.close();
});

const CAMPAIGNS = '/v1/bonus-call/campaigns';
const playersOf = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}${index}`);

it('charges a campaign its number of players and answers 429 with Retry-After when the budget cannot pay for it', async () => {
  const a = harness.http.withToken(TOKENS.a);
  const first = campaignBody('budget-1', playersOf('b1_', 40));
  const accepted = await a.post(CAMPAIGNS, first);
  expect(accepted.status).toBe(202);
  expect(startCampaignResponse.parse(accepted.body).data).toEqual({ campaignId: 'budget-1', total: 40 });

  // 10 tokens left: 30 players need 20 more, at 10 a second.
  const events = await harness.eventCount();
  const limited = await a.post(CAMPAIGNS, campaignBody('budget-2', playersOf('b2_', 30)));
  expect(limited.status).toBe(429);
  expect(limited.body).toEqual({
    success: false,
    message: expect.stringContaining('30 players'),
    data: null,
    error: { code: 'RATE_LIMITED' },
  });
  expect(errorEnvelope.parse(limited.body).error.code).toBe('RATE_LIMITED');
  expect(limited.headers.get('retry-after')).toBe('2');
  expect(await harness.eventCount()).toBe(events);
  expect((await a.get(`${CAMPAIGNS}/budget-2`)).status).toBe(404);

  // A resend registers nobody new: answered as before even with the budget spent, and it costs nothing.
  const resent = await a.post(CAMPAIGNS, first);
  expect(resent.status).toBe(202);
  expect(resent.headers.get('idempotent-replayed')).toBe('true');

  // Another operator's budget is its own.
  const c = harness.http.withToken(TOKENS.c);
  expect((await c.post(CAMPAIGNS, campaignBody('budget-c', playersOf('bc_', 50)))).status).toBe(202);

  harness.clock.advance(2_000);
  expect((await a.post(CAMPAIGNS, campaignBody('budget-2', playersOf('b2_', 30)))).status).toBe(202);
});

it('lets a campaign larger than the budget through when the budget is full, and the next one waits for its debt', async () => {
  harness.clock.advance(60_000);
  const a = harness.http.withToken(TOKENS.a);
  expect((await a.post(CAMPAIGNS, campaignBody('big-1', playersOf('big_', 60)))).status).toBe(202);
  // 50 - 60 = 10 tokens owed: one player needs 11 more, at 10 a second.
  const limited = await a.post(CAMPAIGNS, campaignBody('big-2', ['after_big']));
  expect(limited.status).toBe(429);
  expect(limited.headers.get('retry-after')).toBe('2');
  harness.clock.advance(1_100);
  expect((await a.post(CAMPAIGNS, campaignBody('big-2', ['after_big']))).status).toBe(202);
});

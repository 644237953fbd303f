/**
 * An operator's gateway limits are for all gateway pods together
 * (docs/adr/0042-gateway-limits-divided-by-a-group-of-its-own.md): two gateways on one embedded store
 * and bus each join the `gateway` group on `gateway.limits` and keep half of each limit, so an
 * operator's requests spread over both get the configured limit in total (each pod alone allowed it
 * whole: twice the limit); once one gateway stops, the other takes the whole limit back.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { errorEnvelope } from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { startGateway, type RunningGateway } from '../src/index.js';
import { eventually } from '@reelstream/testing';
import { startHarness, type Harness } from './support/harness.js';
import { HttpClient } from './support/http-client.js';
import { TOKENS } from './support/operators.js';
import { campaignBody } from './support/registrations.js';
import { SqliteReconciliationReadModel } from '@reelstream/wallet-adapters';

/** 10 and 20 halve without rounding: the two pods' parts add up to exactly the limit. */
const RATE_LIMIT = { perSecond: 1, burst: 10 };
const CAMPAIGN_BUDGET = { perSecond: 1, burst: 20 };
const CAMPAIGNS = '/v1/bonus-call/campaigns';

let harness: Harness;
let second: RunningGateway;
let secondStopped = false;

beforeAll(async () => {
  harness = await startHarness({ config: { rateLimit: RATE_LIMIT, campaignRateLimit: CAMPAIGN_BUDGET } });
  second = await startGateway(
    {
      bus: await harness.openBus('gateway-test-2'),
      store: harness.store,
      operators: harness.operators,
      catalog: loadCatalogFile(),
      clock: harness.clock,
      ids: new TimeOrderedIdGenerator(2),
      logger: harness.logger,
      reconciliationReadModels: SqliteReconciliationReadModel,
    },
    harness.config,
  );
  await eventually(() => {
    expect(harness.gateway.limitShare()).toBe(0.5);
    expect(second.limitShare()).toBe(0.5);
  });
});
afterAll(async () => {
  if (!secondStopped) await second.stop(1_000);
  await harness.close();
});

/** Statuses of `count` reads of casino C's providers, alternating between the gateways. */
async function spread(gateways: readonly RunningGateway[], count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < count; index++) {
    const gateway = gateways[index % gateways.length] as RunningGateway;
    const response = await new HttpClient(gateway.url, TOKENS.c).get('/v1/providers');
    if (response.status === 429) expect(errorEnvelope.parse(response.body).error.code).toBe('RATE_LIMITED');
    statuses.push(response.status);
  }
  return statuses;
}

const allowed = (statuses: readonly number[]) => statuses.filter((status) => status === 200).length;

it('lets an operator spread over two gateways make its configured burst in total, not twice it', async () => {
  const statuses = await spread([harness.gateway, second], 30);
  expect(allowed(statuses)).toBe(RATE_LIMIT.burst);
  expect(statuses.filter((status) => status === 429)).toHaveLength(30 - RATE_LIMIT.burst);
  // Each pod kept half: its sixth request was the first it refused.
  expect(statuses.slice(0, RATE_LIMIT.burst)).toEqual(Array(RATE_LIMIT.burst).fill(200));

  // Refilled at half the rate each: 4 s give the two pods 4 requests together.
  harness.clock.advance(4_000);
  expect(allowed(await spread([harness.gateway, second], 10))).toBe(4);
});

it('divides the campaign budget the same way: campaigns over both gateways get the budget in total', async () => {
  harness.clock.advance(60_000);
  const players = (prefix: string) => Array.from({ length: 10 }, (_, index) => `${prefix}${index}`);
  const onFirst = new HttpClient(harness.gateway.url, TOKENS.a);
  const onSecond = new HttpClient(second.url, TOKENS.a);
  expect((await onFirst.post(CAMPAIGNS, campaignBody('split-1', players('s1_')))).status).toBe(202);
  expect((await onSecond.post(CAMPAIGNS, campaignBody('split-2', players('s2_')))).status).toBe(202);
  // 20 players are the budget: one more player is refused on either pod.
  expect((await onFirst.post(CAMPAIGNS, campaignBody('split-3', ['s3_0']))).status).toBe(429);
  expect((await onSecond.post(CAMPAIGNS, campaignBody('split-3', ['s3_0']))).status).toBe(429);
});

it('gives the remaining gateway the whole limit once the other stops', async () => {
  await second.stop(1_000);
  secondStopped = true;
  await eventually(() => expect(harness.gateway.limitShare()).toBe(1));
  harness.clock.advance(60_000);
  expect(allowed(await spread([harness.gateway], 30))).toBe(RATE_LIMIT.burst);
});

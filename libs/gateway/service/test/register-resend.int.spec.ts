/**
 * A resend stays idempotent whatever changed (D17): a registration, or a campaign, sent again after
 * its expireAt passed, or to a gateway started with other operator limits, currencies, features and
 * another catalogue on the same store, gets its original answer (same issueId, replayed); another
 * body under the known platformId (campaignId) is a conflict whatever today's rules say; only an
 * unknown platformId meets today's rules; a malformed body is still a 400.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OperatorDirectory } from '@reelstream/platform-config';
import { HttpHeaders, parseOperatorsConfig, type OperatorConfigInput } from '@reelstream/contracts';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { startGateway } from '../src/index.js';
import { startHarness, type Harness } from './support/harness.js';
import { HttpClient } from './support/http-client.js';
import { OPERATOR_IDS, testOperators, TOKENS } from './support/operators.js';
import { campaignBody, expectRefused, expectRegistered, freeSpinBodies } from './support/registrations.js';
import { SqliteReconciliationReadModel } from '@reelstream/wallet-adapters';

let harness: Harness;
let a: HttpClient;
let b: HttpClient;

beforeAll(async () => {
  harness = await startHarness();
  a = harness.http.withToken(TOKENS.a);
  b = harness.http.withToken(TOKENS.b);
});
afterAll(async () => {
  await harness.close();
});

const REGISTER = '/v1/bonus-call/register';
const CAMPAIGNS = '/v1/bonus-call/campaigns';
const HOUR_MS = 3_600_000;

const body = freeSpinBodies('resend', 'resend_player_');

async function expectReplayed(client: HttpClient, input: Record<string, unknown>, issueId: number): Promise<void> {
  const again = await client.post(REGISTER, input);
  expect({ status: again.status, data: again.body.data }).toEqual({ status: 200, data: { issueId } });
  expect(again.headers.get(HttpHeaders.idempotentReplayed)).toBe('true');
}

/**
 * Runs `test` against a second gateway on the harness's store file, started with `operators` and
 * the catalogue without `withoutGameId`, as the platform would come back after a configuration change.
 */
async function withRestartedGateway(
  operators: OperatorConfigInput[],
  withoutGameId: number,
  test: (client: (token: string) => HttpClient) => Promise<void>,
): Promise<void> {
  const catalog = loadCatalogFile();
  const store = SqliteEventStore.open(harness.dbPath, { synchronous: 'NORMAL' });
  const gateway = await startGateway(
    {
      bus: harness.bus,
      store,
      operators: new OperatorDirectory(parseOperatorsConfig(operators)),
      catalog: { ...catalog, games: catalog.games.filter((game) => game.gameId !== withoutGameId) },
      clock: harness.clock,
      ids: new TimeOrderedIdGenerator(3),
      logger: harness.logger,
      reconciliationReadModels: SqliteReconciliationReadModel,
    },
    harness.config,
  );
  try {
    await test((token) => new HttpClient(gateway.url, token));
  } finally {
    await gateway.stop(1_000);
    await store.close();
  }
}

describe('a registration sent again', () => {
  it('after its expireAt passed: the same issueId with Idempotent-Replayed: true; another body 409; nothing appended', async () => {
    // The harness's clock stands at 2026-05-01T00:00:00Z; casino A is in UTC.
    const input = body({ expireAt: '2026-05-01 00:10:00' });
    const issueId = await expectRegistered(a, input);
    harness.clock.advance(HOUR_MS);
    try {
      const events = await harness.eventCount();
      await expectReplayed(a, input, issueId);
      // The same request as the schema normalises it: the alias, the words, the games in another order.
      const { platformId, ...rest } = input;
      await expectReplayed(a, { ...rest, issueId: platformId, bonusType: 'FreeSpin', gameId: [102, 101] }, issueId);
      // Another body under the known platformId is a conflict, even one today's rules would refuse otherwise.
      await expectRefused(a, { ...input, callAmount: 51 }, 409, 'PLATFORM_ID_CONFLICT');
      await expectRefused(a, { ...input, playerId: 'someone_else' }, 409, 'PLATFORM_ID_CONFLICT');
      await expectRefused(a, { ...input, expireAt: '2026-05-01 00:20:00' }, 409, 'PLATFORM_ID_CONFLICT');
      // A malformed body is answered by the schema first.
      await expectRefused(a, { ...input, callAmount: 'fifty' }, 400, 'VALIDATION_FAILED', 'callAmount');
      // An unknown platformId meets today's rules.
      await expectRefused(a, { ...input, platformId: 'resend-new' }, 422, 'EXPIRE_AT_IN_PAST', 'expireAt');
      expect(await harness.eventCount()).toBe(events);
    } finally {
      harness.clock.advance(-HOUR_MS);
    }
  });

  it("after the operator's currencies, limits and features and the catalogue changed: the original answer from a gateway started with them", async () => {
    const inKrw = body({
      gameId: 101,
      currency: 'KRW',
      callAmount: 50_000,
      metaData: { spinAmount: 5, baseBetAmount: 200 },
    });
    const large = body({ gameId: 101, callAmount: 5_000 });
    const onGame102 = body({ gameId: 102 });
    const { metaData: _none, ...regular } = body({ bonusType: 2, callAmount: 30_000 });
    const issued = {
      inKrw: await expectRegistered(a, inKrw),
      large: await expectRegistered(a, large),
      onGame102: await expectRegistered(a, onGame102),
      regular: await expectRegistered(b, regular),
    };
    const changed = testOperators.map((operator) =>
      operator.id === OPERATOR_IDS.a
        ? { ...operator, currencies: ['EUR'], limits: { EUR: { maxCallAmount: 1_000 } } }
        : operator.id === OPERATOR_IDS.b
          ? { ...operator, features: { regularBonusCall: false } }
          : operator,
    );
    await withRestartedGateway(changed, 102, async (client) => {
      const restartedA = client(TOKENS.a);
      const restartedB = client(TOKENS.b);
      const events = await harness.eventCount();
      await expectReplayed(restartedA, inKrw, issued.inKrw);
      await expectReplayed(restartedA, large, issued.large);
      await expectReplayed(restartedA, onGame102, issued.onGame102);
      await expectReplayed(restartedB, regular, issued.regular);
      await expectRefused(restartedA, { ...large, callAmount: 5_001 }, 409, 'PLATFORM_ID_CONFLICT');
      // The same terms under new platformIds: today's rules, which really changed.
      const fresh = (input: Record<string, unknown>) => ({
        ...input,
        platformId: `${String(input['platformId'])}-new`,
      });
      await expectRefused(restartedA, fresh(inKrw), 422, 'CURRENCY_NOT_ALLOWED', 'currency');
      await expectRefused(restartedA, fresh(large), 422, 'CALL_AMOUNT_LIMIT_EXCEEDED', 'callAmount');
      await expectRefused(restartedA, fresh(onGame102), 422, 'GAME_NOT_FOUND', 'gameId');
      await expectRefused(restartedB, fresh(regular), 422, 'BONUS_TYPE_UNAVAILABLE', 'bonusType');
      expect(await harness.eventCount()).toBe(events);
    });
  });
});

describe('a campaign sent again', () => {
  it('after its expireAt passed, and after the operator and the catalogue changed: 202 replayed; another body 409', async () => {
    const input = campaignBody('resend-c', ['resend_c1', 'resend_c2'], {
      gameId: [101, 102],
      callAmount: 5_000,
      expireAt: '2026-05-01 00:10:00',
    });
    const started = await a.post(CAMPAIGNS, input);
    expect(started.status).toBe(202);
    expect(started.headers.get(HttpHeaders.idempotentReplayed)).toBeNull();
    harness.clock.advance(HOUR_MS);
    try {
      const expectReplayedCampaign = async (client: HttpClient) => {
        const again = await client.post(CAMPAIGNS, input);
        expect({ status: again.status, data: again.body.data }).toEqual({
          status: 202,
          data: { campaignId: 'resend-c', total: 2 },
        });
        expect(again.headers.get(HttpHeaders.idempotentReplayed)).toBe('true');
      };
      const events = await harness.eventCount();
      await expectReplayedCampaign(a);
      const conflict = await a.post(CAMPAIGNS, { ...input, callAmount: 51 });
      expect({ status: conflict.status, code: conflict.body.error?.code }).toEqual({
        status: 409,
        code: 'CAMPAIGN_ID_CONFLICT',
      });
      const malformed = await a.post(CAMPAIGNS, { ...input, players: 'everyone' });
      expect({ status: malformed.status, code: malformed.body.error?.code }).toEqual({
        status: 400,
        code: 'VALIDATION_FAILED',
      });
      const fresh = await a.post(CAMPAIGNS, { ...input, campaignId: 'resend-c-new' });
      expect({ status: fresh.status, code: fresh.body.error?.code }).toEqual({
        status: 422,
        code: 'EXPIRE_AT_IN_PAST',
      });

      const changed = testOperators.map((operator) =>
        operator.id === OPERATOR_IDS.a ? { ...operator, limits: { EUR: { maxCallAmount: 1_000 } } } : operator,
      );
      await withRestartedGateway(changed, 102, async (client) => {
        await expectReplayedCampaign(client(TOKENS.a));
      });
      expect(await harness.eventCount()).toBe(events);
    } finally {
      harness.clock.advance(-HOUR_MS);
    }
  });
});

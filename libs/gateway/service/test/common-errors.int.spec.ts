/**
 * The error codes every endpoint shares, endpoint by endpoint, with the real ledger: 429 with
 * Retry-After from the per-operator limit, 503 SERVICE_UNAVAILABLE with Retry-After when the
 * ledger does not answer (cancel and the queries; registration is decided in the gateway), and
 * the body errors of the writes. (401 is in tenancy.int.spec.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiOperations, errorEnvelope } from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { eventually } from '@reelstream/testing';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { startGateway, type RunningGateway } from '../src/index.js';
import { HttpClient } from './support/http-client.js';
import { TOKENS } from './support/operators.js';
import { campaignBody } from './support/registrations.js';
import { startStack, type Stack } from './support/stack.js';
import { SqliteReconciliationReadModel } from '@reelstream/wallet-adapters';

let stack: Stack;
/** A second gateway on the same back ends: one request per operator and second, 300 ms for the ledger. */
let strict: RunningGateway;

const validBodies: Record<string, unknown> = {
  '/v1/bonus-call/register': {
    platformId: 'common-1',
    providerId: 1,
    gameId: 101,
    playerId: 'common_player',
    bonusType: 1,
    callAmount: 5,
    expireAt: '2026-06-30 23:59:59',
    metaData: { spinAmount: 1, baseBetAmount: 0.2 },
  },
  '/v1/bonus-call/cancel': { platformId: 'common-1' },
  '/v1/game/launch': {
    playerId: 'common_player',
    providerId: 1,
    gameId: 101,
    language: 'en',
    returnUrl: 'https://casino-a.example/',
    isStreamer: false,
  },
  '/v1/bonus-call/campaigns': campaignBody('common', ['common_campaign_player']),
};
/** The campaign endpoint takes 10,000 playerIds: its body limit is 1 MiB whatever BODY_LIMIT_BYTES is. */
const bodyLimitOf = (path: string) => (path === '/v1/bonus-call/campaigns' ? 1024 * 1024 : 2_048);
const reads = [
  '/v1/bonus-call/1234',
  '/v1/bonus-call?playerId=common_player',
  '/v1/providers',
  '/v1/games?providerId=1',
  '/v1/rounds/1234',
  '/v1/transactions?playerId=common_player',
  '/v1/wallet/dead-letters',
  '/v1/bonus-call/campaigns/common',
  '/v1/webhooks/dead-letters',
  '/v1/wallet/health',
];
const writes = Object.keys(validBodies);
/** Writes without a body: the re-drive (its 503 is in reconciliation-tenancy.int.spec.ts, with a dead letter to send). */
const bodiless = [
  '/v1/wallet/dead-letters/1234/redrive',
  '/v1/webhooks/dead-letters/bw-00000000-0000-4000-8000-000000000000/redrive',
];
// Registration is decided in the gateway (ADR 0011): it needs the store, not the ledger.
const ledgerCalls: [string, string][] = [
  ['POST', '/v1/bonus-call/cancel'],
  ['GET', '/v1/bonus-call/1234'],
  ['GET', '/v1/bonus-call?playerId=common_player'],
];

beforeAll(async () => {
  stack = await startStack({ config: { bodyLimitBytes: 2_048 } });
  strict = await startGateway(
    {
      bus: stack.bus,
      store: stack.store,
      operators: stack.operators,
      catalog: loadCatalogFile(),
      clock: stack.clock,
      ids: new TimeOrderedIdGenerator(3),
      logger: stack.logger,
      reconciliationReadModels: SqliteReconciliationReadModel,
    },
    { ...stack.config, rateLimit: { perSecond: 2, burst: 1 }, ledgerTimeoutMs: 300 },
  );
  // A second gateway of the stack's group keeps half of each limit (ADR 0042): one request, refilled at 1 a second.
  await eventually(() => expect(strict.limitShare()).toBe(0.5));
});
afterAll(async () => {
  await strict.stop(1_000);
  await stack.close();
});

function call(client: HttpClient, method: string, path: string) {
  if (method === 'GET') return client.get(path);
  return bodiless.includes(path) ? client.call('POST', path) : client.post(path, validBodies[path]);
}

it('covers every operation of the API', () => {
  const paths = Object.values(ApiOperations).map((operation) => operation.path);
  const covered = [...writes, ...bodiless, ...reads].map((path) =>
    path
      .replace(/\?.*$/, '')
      .replace(/^\/v1\/bonus-call\/1234$/, '/v1/bonus-call/{issueId}')
      .replace(/^\/v1\/bonus-call\/campaigns\/common$/, '/v1/bonus-call/campaigns/{campaignId}')
      .replace(/^\/v1\/rounds\/1234$/, '/v1/rounds/{roundId}')
      .replace('/wallet/dead-letters/1234/', '/wallet/dead-letters/{transactionId}/')
      .replace(/\/webhooks\/dead-letters\/bw-[0-9a-f-]+\//, '/webhooks/dead-letters/{eventId}/'),
  );
  expect(new Set(covered)).toEqual(new Set(paths));
});

describe('429 RATE_LIMITED', () => {
  it.each([
    ...writes.map((path) => ['POST', path]),
    ...bodiless.map((path) => ['POST', path]),
    ...reads.map((path) => ['GET', path]),
  ])('%s %s answers 429 with Retry-After once the bucket is empty', async (method, path) => {
    stack.clock.advance(60_000);
    const client = new HttpClient(strict.url, TOKENS.c);
    await call(client, method, path);
    const limited = await call(client, method, path);
    expect(limited.status).toBe(429);
    expect(errorEnvelope.parse(limited.body).error.code).toBe('RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBe('1');
  });
});

describe('503 SERVICE_UNAVAILABLE', () => {
  it.each(ledgerCalls)(
    '%s %s answers 503 with Retry-After when the ledger does not answer in time',
    async (method, path) => {
      stack.clock.advance(60_000);
      await stack.stopLedger();
      try {
        const response = await call(new HttpClient(strict.url, TOKENS.a), method, path);
        expect(response.status).toBe(503);
        expect(errorEnvelope.parse(response.body).error.code).toBe('SERVICE_UNAVAILABLE');
        expect(response.headers.get('retry-after')).toBe('1');
      } finally {
        await stack.startLedger();
      }
    },
  );

  it('still answers what needs no ledger while it is down', async () => {
    await stack.stopLedger();
    try {
      const a = stack.http.withToken(TOKENS.a);
      expect((await a.get('/v1/providers')).status).toBe(200);
      expect((await a.post('/v1/game/launch', validBodies['/v1/game/launch'])).status).toBe(200);
      // A campaign is stored by the gateway; the ledger registers its players once it is back.
      expect((await a.post('/v1/bonus-call/campaigns', validBodies['/v1/bonus-call/campaigns'])).status).toBe(202);
      expect((await a.post('/v1/bonus-call/register', validBodies['/v1/bonus-call/register'])).status).toBe(200);
    } finally {
      await stack.startLedger();
    }
  });
});

describe('body errors of the writes', () => {
  const a = () => stack.http.withToken(TOKENS.a);
  // The campaigns the tests above started register their players in the background: done before events are counted.
  beforeAll(async () => {
    const deadline = Date.now() + 20_000;
    for (const token of [TOKENS.a, TOKENS.c]) {
      for (;;) {
        const read = await stack.http.withToken(token).get('/v1/bonus-call/campaigns/common');
        if (read.status === 404 || read.body.data?.state === 'completed') break;
        if (Date.now() > deadline) throw new Error(`campaign common did not complete: ${read.text}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  });
  it.each(writes)(
    'POST %s answers MALFORMED_JSON, UNSUPPORTED_MEDIA_TYPE and PAYLOAD_TOO_LARGE in the envelope',
    async (path) => {
      const events = await stack.eventCount();
      const malformed = await a().call('POST', path, {
        raw: '{"platformId": "x",',
        headers: { 'content-type': 'application/json' },
      });
      expect([malformed.status, malformed.body.error.code]).toEqual([400, 'MALFORMED_JSON']);
      const wrongType = await a().call('POST', path, {
        raw: JSON.stringify(validBodies[path]),
        headers: { 'content-type': 'text/plain' },
      });
      expect([wrongType.status, wrongType.body.error.code]).toEqual([400, 'UNSUPPORTED_MEDIA_TYPE']);
      const tooLarge = await a().call('POST', path, {
        raw: JSON.stringify({ ...(validBodies[path] as object), padding: 'x'.repeat(bodyLimitOf(path)) }),
        headers: { 'content-type': 'application/json' },
      });
      expect([tooLarge.status, tooLarge.body.error.code]).toEqual([400, 'PAYLOAD_TOO_LARGE']);
      const invalid = await a().post(path, { nonsense: true });
      expect([invalid.status, invalid.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
      for (const response of [malformed, wrongType, tooLarge, invalid]) errorEnvelope.parse(response.body);
      expect(await stack.eventCount()).toBe(events);
    },
  );
});

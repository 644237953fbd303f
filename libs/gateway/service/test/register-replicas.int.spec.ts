/**
 * Registration decided in the gateway (ADR 0011) by several gateway replicas at once: two gateways
 * on one store file, each with its own connection (as two processes would have), and requests sent
 * to both concurrently. The expected revisions of the guard stream and the player's stream are the
 * only lock: the same request is registered once and answered with one issueId everywhere; of
 * registrations for one player, exactly one is accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bonusRequestStream, playerBonusStream } from '@reelstream/contracts';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { startGateway, type RunningGateway } from '../src/index.js';
import { startHarness, type Harness } from './support/harness.js';
import { HttpClient } from './support/http-client.js';
import { TOKENS } from './support/operators.js';
import { freeSpinBodies } from './support/registrations.js';
import { SqliteReconciliationReadModel } from '@reelstream/wallet-adapters';

let harness: Harness;
let otherStore: SqliteEventStore;
let other: RunningGateway;
let mine: HttpClient;
let theirs: HttpClient;
/** Every other request to the other replica. */
const replica = (index: number): HttpClient => (index % 2 === 0 ? mine : theirs);

beforeAll(async () => {
  harness = await startHarness();
  otherStore = SqliteEventStore.open(harness.dbPath, { synchronous: 'NORMAL' });
  other = await startGateway(
    {
      bus: harness.bus,
      store: otherStore,
      operators: harness.operators,
      catalog: loadCatalogFile(),
      clock: harness.clock,
      ids: new TimeOrderedIdGenerator(2),
      logger: harness.logger,
      reconciliationReadModels: SqliteReconciliationReadModel,
    },
    harness.config,
  );
  mine = harness.http.withToken(TOKENS.a);
  theirs = new HttpClient(other.url, TOKENS.a);
});
afterAll(async () => {
  await other.stop(1_000);
  await otherStore.close();
  await harness.close();
});

const body = freeSpinBodies('replica', 'replica_player_');
const ROUNDS = 10;

describe('concurrent registrations on two gateway replicas', () => {
  it('registers the same request once: every answer has the one issueId, one of them not replayed', async () => {
    const input = body();
    const answers = await Promise.all(
      Array.from({ length: ROUNDS }, (_, index) => replica(index).post('/v1/bonus-call/register', input)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(ROUNDS).fill(200));
    const issueIds = new Set(answers.map((answer) => answer.body.data.issueId));
    expect(issueIds.size).toBe(1);
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
    const platformId = input['platformId'] as string;
    const playerId = input['playerId'] as string;
    expect((await harness.store.readStream(bonusRequestStream('casino-a', platformId))).length).toBe(1);
    const registered = await harness.store.readStream(playerBonusStream('casino-a', playerId));
    expect(registered.map((event) => [event.type, (event.data as { issueId: number }).issueId])).toEqual([
      ['BonusCallRegistered', [...issueIds][0]],
    ]);
  });

  it('accepts exactly one of several registrations for one player (other platformIds): the rest are ACTIVE_BONUS_EXISTS', async () => {
    const first = body();
    const playerId = first['playerId'] as string;
    const inputs = Array.from({ length: ROUNDS }, (_, index) => (index === 0 ? first : { ...body(), playerId }));
    const answers = await Promise.all(
      inputs.map((input, index) => replica(index).post('/v1/bonus-call/register', input)),
    );
    const outcomes = answers.map((answer) => (answer.status === 200 ? 'ok' : answer.body.error.code));
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome !== 'ok')).toEqual(Array(ROUNDS - 1).fill('ACTIVE_BONUS_EXISTS'));
    const stream = await harness.store.readStream(playerBonusStream('casino-a', playerId));
    expect(stream.map((event) => event.type)).toEqual(['BonusCallRegistered']);
  });
});

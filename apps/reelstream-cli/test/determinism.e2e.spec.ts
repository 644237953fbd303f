/**
 * Replay determinism on the real platform (`npm start` as a child process, the e2e harness of
 * apps/platform): a workload of free and paid spins, a streamer and a demo session, a canceled and
 * an expired bonus; then the whole log is replayed and
 * - the rebuilt bonus read model equals the live one (the bonus-ledger's SQLite read model file),
 * - the rebuilt session views equal what the live game-server answered for every session,
 * - the same replay run twice prints byte-identical output.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sessionKeyOf } from '@reelstream/contracts';
import { catalogFacts, replay, ReplayProjections } from '@reelstream/analytics-application';
import { AnalyticsFold } from '@reelstream/analytics-domain';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { readModelPath } from '@reelstream/bonus-service';
import { SqliteBonusReadModel } from '@reelstream/bonus-adapters';
import { eventually } from '@reelstream/testing';
import { call, expectOk, OperatorClient, PlayerClient, SandboxAdmin } from '../../platform/test/support/clients.js';
import { oneProcess, PLATFORM_INSTANCE_ID, type RunningPlatform } from '../../platform/test/support/topologies.js';
import { cli } from './cli-harness.js';

let dataDir: string;
let platform: RunningPlatform | undefined;
/** What the live game-server answered for each session (`GET /api/sessions/{token}`), before the stop. */
const liveSessions = new Map<string, Record<string, unknown>>();
const tokens: string[] = [];

async function launch(operator: OperatorClient, playerId: string, extra: Record<string, unknown>): Promise<string> {
  const { gatewayUrl, operator: account } = platform as RunningPlatform;
  const response = expectOk(
    await call('POST', `${gatewayUrl}/v1/game/launch`, {
      token: account.token,
      json: {
        playerId,
        providerId: 1,
        gameId: 101,
        language: 'en',
        returnUrl: 'https://casino.example/lobby',
        isStreamer: false,
        ...extra,
      },
    }),
    'launch',
  );
  const token = new URL(String(response.body.data)).searchParams.get('token') ?? '';
  tokens.push(token);
  return token;
}

async function workload(running: RunningPlatform): Promise<void> {
  const operator = new OperatorClient(() => running.gatewayUrl, running.operator);
  const wallet = new SandboxAdmin(() => running.sandboxUrl, running.operator.id);
  const player = (token: string) => new PlayerClient(() => running.gameUrl, token);
  for (const id of ['det_free', 'det_paid', 'det_cancel', 'det_streamer', 'det_expire'])
    await wallet.setBalance(id, 20);

  const freeIssue = await operator.registerFreeSpins({ playerId: 'det_free', spins: 3 });
  const free = player(await launch(operator, 'det_free', {}));
  for (let spin = 0; spin < 3; spin++) expect((await free.spin({})).body.data.kind).toBe('free');
  for (let spin = 0; spin < 3; spin++) expect((await free.spin({ bet: 0.2 })).body.data.kind).toBe('paid');

  const paid = player(await launch(operator, 'det_paid', {}));
  for (let spin = 0; spin < 5; spin++) expect((await paid.spin({ bet: 0.4 })).status).toBe(200);

  const cancelIssue = await operator.registerFreeSpins({ playerId: 'det_cancel', spins: 5 });
  expect((await player(await launch(operator, 'det_cancel', {})).spin({})).body.data.kind).toBe('free');
  expectOk(await operator.cancel(cancelIssue), 'cancel');

  const streamer = player(await launch(operator, 'det_streamer', { isStreamer: true }));
  for (let spin = 0; spin < 3; spin++) expect((await streamer.spin({ bet: 0.2 })).status).toBe(200);
  const demo = player(await launch(operator, 'det_demo', { demo: true }));
  expect((await demo.spin({ bet: 0.2 })).status).toBe(200);

  const expireIssue = await operator.registerFreeSpins({
    playerId: 'det_expire',
    spins: 2,
    expireAt: new Date(Date.now() + 3_000),
  });
  await eventually(async () => expect((await operator.bonus(expireIssue)).body.data.status).toBe('expired'), 30_000);
  await eventually(async () => expect((await operator.bonus(freeIssue)).body.data.status).toBe('completed'), 15_000);
  await eventually(async () => expect((await operator.bonus(cancelIssue)).body.data.status).toBe('canceled'), 15_000);
  for (const token of tokens) liveSessions.set(token, expectOk(await player(token).session(), 'session').body.data);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'reelstream-determinism-'));
  platform = await oneProcess.start(dataDir);
  await workload(platform);
  // A drained stop: the live projection has written everything it handled.
  expect(await platform.stop('SIGINT')).toEqual([0]);
  platform = undefined;
}, 180_000);

afterAll(async () => {
  if (platform) await platform.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function replayWhole() {
  const store = SqliteEventStore.open(join(dataDir, 'reelstream.db'));
  const projections = new ReplayProjections();
  const fold = new AnalyticsFold({ filter: {}, catalog: catalogFacts(loadCatalogFile()), timeZoneOf: () => 'UTC' });
  try {
    await replay({ store, fold, projections, validation: 'strict' });
  } finally {
    await store.close();
  }
  return { projections, fold };
}

describe('replaying the whole log of a real run', () => {
  it('rebuilds the bonus read model identical to the live one', async () => {
    const { projections } = await replayWhole();
    const live = SqliteBonusReadModel.open(readModelPath(dataDir, PLATFORM_INSTANCE_ID), {
      comparePositions: (a, b) => Number(a) - Number(b),
    });
    try {
      const liveRecords = live.allRecords();
      expect(liveRecords.map((record) => record.status).sort()).toEqual(['canceled', 'completed', 'expired']);
      expect(projections.bonusRecords()).toEqual(liveRecords);
    } finally {
      live.close();
    }
  });

  it('rebuilds every session view as the live game-server showed it', async () => {
    const { projections } = await replayWhole();
    // The log names a session by its token's key, never by the token (the launch URL alone carries it).
    expect(
      projections
        .sessions()
        .map((session) => session.token)
        .sort(),
    ).toEqual([...tokens].map(sessionKeyOf).sort());
    for (const [token, live] of liveSessions) {
      const rebuilt = projections.session(sessionKeyOf(token));
      expect(rebuilt).toBeDefined();
      expect({
        playerId: rebuilt?.playerId,
        game: { gameId: rebuilt?.gameId, providerId: rebuilt?.providerId },
        currency: rebuilt?.currency,
        language: rebuilt?.language,
        returnUrl: rebuilt?.returnUrl,
        demo: rebuilt?.demo,
        expiresAt: rebuilt?.expiresAt,
      }).toEqual({
        playerId: live['playerId'],
        game: expect.objectContaining({ gameId: (live['game'] as { gameId: number }).gameId, providerId: 1 }),
        currency: live['currency'],
        language: live['language'],
        returnUrl: live['returnUrl'],
        demo: live['demo'],
        expiresAt: live['expiresAt'],
      });
    }
    expect(
      projections
        .sessions()
        .filter((session) => session.isStreamer)
        .map((session) => session.playerId),
    ).toEqual(['det_streamer']);
  });

  it('prints byte-identical reports when the same replay runs twice', async () => {
    const args = ['replay', '--source', join(dataDir, 'reelstream.db'), '--no-progress', '--format'];
    for (const format of ['json', 'csv']) {
      const first = await cli([...args, format]);
      const second = await cli([...args, format]);
      expect(first.code).toBe(0);
      expect(first.stdout).toContain('det_free');
      expect(second.stdout).toBe(first.stdout);
    }
  });

  it('keeps the streamer out of the agent report and shows its rounds apart', async () => {
    const { fold } = await replayWhole();
    const agent = fold.report('agent').rows;
    const games = fold.report('game-performance').rows;
    expect(games.find((row) => row.segment === 'streamer')?.rounds).toBe(3);
    // det_free 3 × 0.20 + det_paid 5 × 0.40; the streamer's 3 × 0.20 and the demo spin are not there.
    expect(agent.reduce((sum, row) => sum + row.betsMinor, 0)).toBe(3 * 20 + 5 * 40);
  });
});

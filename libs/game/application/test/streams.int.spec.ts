import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import {
  roundStream,
  sessionKeyOf,
  sessionKeyStream,
  type RoundCanceled,
  type RoundSettled,
} from '@reelstream/contracts';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { parseCatalog } from '@reelstream/game-domain';
import { ManualClock } from '@reelstream/platform-ports';
import { LAUNCH_REQUEST, paidRoundStarted } from '@reelstream/testing';
import { RoundConflictError, RoundStreams, SessionRepository, startGameSession } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'game-application-'));
const store = SqliteEventStore.open(join(dir, 'events.db'));
const clock = new ManualClock('2026-05-01T10:00:00.000Z');
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const round = (roundId: number) => paidRoundStarted({ roundId, transactionId: roundId + 1 });
const canceled = (roundId: number): RoundCanceled => ({
  type: 'RoundCanceled',
  data: { roundId, reason: 'bet_rejected:ERR_UNKNOWN', canceledAt: '2026-05-01T10:00:01.000Z' },
});
const settled = (roundId: number): RoundSettled => ({
  type: 'RoundSettled',
  data: {
    roundId,
    outcome: { modelId: 'neon-fruits', profile: 'standard', betMinor: 100, draws: [0, 0, 0, 0, 0] },
    winMinor: 0,
    settledAt: '2026-05-01T10:00:01.000Z',
    winTransactionId: roundId + 2,
  },
});

describe('round streams through the round decider', () => {
  const rounds = new RoundStreams(store, clock);

  it('ends a round once when two hands finish it together; the other reads the end that was written', async () => {
    const started = await rounds.start(round(1001), 'spin-1');
    const [a, b] = await Promise.all([
      rounds.finish(started, settled(1001), 'spin-1'),
      rounds.finish(started, canceled(1001), 'resolve-round-1001'),
    ]);
    expect([a.ours, b.ours].sort()).toEqual([false, true]);
    expect(a.history.end).toEqual(b.history.end);
    const types = (await store.readStream(roundStream(1001))).map((event) => event.type);
    expect(types).toHaveLength(2);
    expect(types[0]).toBe('RoundStarted');
    expect((await rounds.load(1001))?.end).toEqual(a.history.end);
  });

  it('starts a round once: a second start plays on with the first one’s record', async () => {
    const first = round(2001);
    const [x, y] = await Promise.all([
      rounds.start(first, 'free-a'),
      rounds.start({ ...first, startedAt: '2026-05-01T10:00:09.000Z' }, 'free-b'),
    ]);
    expect(x).toEqual(y);
    expect(await store.readStream(roundStream(2001))).toHaveLength(1);
  });

  it('refuses to end a round that never started, and writes nothing', async () => {
    await expect(rounds.finish(round(3001), canceled(3001), 'stray')).rejects.toBeInstanceOf(RoundConflictError);
    expect(await store.streamRevision(roundStream(3001))).toBeUndefined();
  });
});

describe('session start and play through the session decider', () => {
  const catalog = parseCatalog(
    JSON.parse(readFileSync(new URL('../../../../config/catalog.json', import.meta.url), 'utf8')),
  );
  let next = 0;
  const tokens = ['Tok0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'Tok1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'];
  const deps = {
    store,
    catalog,
    clock,
    launchBaseUrl: 'http://launch.test',
    sessionTtlMs: 60_000,
    newToken: () => tokens[next++ % tokens.length] ?? '',
  };
  const operator = { id: 'casino-t', currency: 'EUR', allowedReturnOrigins: [], features: { streamers: false } };
  const request = LAUNCH_REQUEST;

  it('writes nothing for a refused launch and answers the refusal', async () => {
    const refused = await startGameSession(deps, operator, { ...request, gameId: 999 }, 'req-1');
    expect(refused).toMatchObject({ type: 'Refusal', code: 'GAME_NOT_FOUND' });
    expect(await store.streamRevision(sessionKeyStream(sessionKeyOf(tokens[0] ?? '')))).toBeUndefined();
  });

  it('starts a session that is playable until its TTL, then refused as expired (a value, not an HTTP error)', async () => {
    const url = await startGameSession(deps, operator, request, 'req-2');
    expect(url).toBe(`http://launch.test/launch?token=${tokens[1]}`);
    const sessions = new SessionRepository(store, clock);
    const token = tokens[1] ?? '';
    // Found by its token; the session (as the log holds it) names only the token's SHA-256.
    expect(await sessions.playable(token)).toMatchObject({
      token: sessionKeyOf(token),
      demo: false,
      expiresAt: '2026-05-01T10:01:00.000Z',
    });
    clock.advance(60_000);
    expect(await sessions.playable(token)).toEqual({
      type: 'Refusal',
      code: 'SESSION_EXPIRED',
      message: 'The game session has expired.',
      retriable: false,
    });
    expect(await sessions.playable('no-such-token-aaaaaaaaaaaaaaaaaaaa')).toMatchObject({ code: 'SESSION_NOT_FOUND' });
  });

  it('answers whose session a token is, expired or not, from memory once found; an unknown token is no one’s', async () => {
    const token = tokens[1] ?? '';
    let revisionsAsked = 0;
    const counting = Object.assign(Object.create(store) as SqliteEventStore, {
      streamRevision: (streamId: string) => {
        revisionsAsked += 1;
        return store.streamRevision(streamId);
      },
    });
    const sessions = new SessionRepository(counting, clock);
    expect(await sessions.ownerOf(token)).toMatchObject({ operatorId: 'casino-t', playerId: request.playerId });
    const asked = revisionsAsked;
    expect(asked).toBeGreaterThan(0);
    expect(await sessions.ownerOf(token)).toMatchObject({ operatorId: 'casino-t', playerId: request.playerId });
    expect(revisionsAsked).toBe(asked);
    expect(await sessions.ownerOf('no-such-token-aaaaaaaaaaaaaaaaaaaa')).toBeUndefined();
  });
});

/**
 * Two game-server replicas on one SQLite data dir with the round outbox split into four shards
 * (ROUND_OUTBOX_SHARDS, docs/adr/0045-outbox-and-relay-split-into-shards.md): each replica joins the
 * `game-server` group and works on its share of the shards, two each; every win is published once,
 * whichever replica played its round; when one replica dies without releasing its leases, the other takes
 * its shards over after LEASE_TTL_MS and sends the wins of the rounds played since.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createSeededRng } from '@reelstream/game-domain';
import { eventually } from '@reelstream/testing';
import type { GameServer } from '../src/index.js';
import { replicaPlayers, winsSentAfterAKill, winsSentOnce } from './support/replica-rounds.js';
import { Stack } from './support/stack.js';

// Long enough that a stalled event loop on a busy machine does not lose a lease by itself.
const TTL_MS = 2_000;
const SHARDS = 4;
const gameServer = { leaseTtlMs: TTL_MS, roundOutboxShards: SHARDS };
const stack = Stack.forTests({ gameServer, rng: createSeededRng('sharded-a') });
let replicaB: GameServer;

beforeAll(async () => {
  replicaB = await stack.startGameServer(
    { ownConnection: true, gameServer, rng: createSeededRng('sharded-b') },
    'game-server-sharded-b',
  );
});
afterAll(() => replicaB?.stop(1_000));

describe('a round outbox split into shards over two replicas', () => {
  it('shares the shards, sends every win once, and hands a dead replica’s shards to the other', async () => {
    // Both joined the group: half of it each, so two shards each, none on both.
    await eventually(() => {
      expect(stack.gameServer.outbox.shards).toHaveLength(SHARDS / 2);
      expect(replicaB.outbox.shards).toHaveLength(SHARDS / 2);
    }, 15_000);
    expect([...stack.gameServer.outbox.shards, ...replicaB.outbox.shards].sort()).toEqual([0, 1, 2, 3]);

    const players = Array.from({ length: 8 }, (_, index) => `sharded_${index}`);
    const { wins, playRound } = await replicaPlayers(stack, players);
    for (let round = 0; round < 4; round++) await playRound(round % 2 === 0 ? stack.gameServer : replicaB);
    const before = await winsSentOnce(stack, wins);

    const killedAt = Date.now();
    await stack.gameServer.abandon();
    await eventually(() => expect(replicaB.outbox.shards).toEqual([0, 1, 2, 3]), 20_000);
    process.stdout.write(
      `[sharded-outbox] ${SHARDS} shards on the surviving replica ${Date.now() - killedAt} ms after the other died (ttl ${TTL_MS} ms); ${before.size} wins before, each sent once\n`,
    );

    for (let round = 0; round < 4; round++) await playRound(replicaB);
    await winsSentAfterAKill(stack, wins, before);
  });
});

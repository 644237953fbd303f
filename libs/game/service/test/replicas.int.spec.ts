/**
 * Two game-server replicas on one SQLite data dir, each on its own connection and bus client (as
 * two processes): a double click that lands on both places one bet; the round outbox runs on one
 * replica only, so each win is published once; when that replica dies without releasing its lease
 * the other takes the outbox over after LEASE_TTL_MS (docs/adr/0005-leases-and-fencing.md).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createSeededRng } from '@reelstream/game-domain';
import { eventually } from '@reelstream/testing';
import type { GameServer } from '../src/index.js';
import { replicaPlayers, spinAt, winsSentAfterAKill, winsSentOnce } from './support/replica-rounds.js';
import { Stack } from './support/stack.js';

// Long enough that a stalled event loop on a busy machine does not lose a lease by itself.
const TTL_MS = 2_000;
const stack = Stack.forTests({ gameServer: { leaseTtlMs: TTL_MS }, rng: createSeededRng('replicas-a') });
let replicaB: GameServer;

beforeAll(async () => {
  // The stack's own game-server took the outbox lease at its start: it is the holder here.
  await eventually(() => expect(stack.gameServer.outbox.holding).toBe(true));
  replicaB = await stack.startGameServer(
    { ownConnection: true, gameServer: { leaseTtlMs: TTL_MS }, rng: createSeededRng('replicas-b') },
    'game-server-replica-b',
  );
});
afterAll(() => replicaB?.stop(1_000));

const bets = (playerId: string) => stack.transactions(playerId).filter((transaction) => transaction.command === 'bet');

describe('two game-server replicas', () => {
  it('a double click landing on both replicas at once places one bet: the other spin is refused SPIN_IN_PROGRESS', async () => {
    for (let click = 0; click < 4; click++) {
      const playerId = `two_replicas_${click}`;
      const { token } = await stack.launch(playerId, 101);
      stack.sandbox.faults.add({ playerId, command: 'bet', latencyMs: 300, times: 1 });
      const answers = await Promise.all([spinAt(stack.gameServer, token), spinAt(replicaB, token)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.status === 409)?.body.error.code).toBe('SPIN_IN_PROGRESS');
      expect(bets(playerId)).toHaveLength(1);
      // The claim is released with the spin: the next click on the other replica plays.
      expect((await spinAt(click % 2 === 0 ? replicaB : stack.gameServer, token)).status).toBe(200);
      expect(bets(playerId)).toHaveLength(2);
    }
  });

  it('publishes each win from one replica only; the other takes the outbox over after the ttl when the holder dies', async () => {
    expect(replicaB.outbox.holding).toBe(false);
    const { wins, playRound } = await replicaPlayers(stack, ['outbox_a', 'outbox_b', 'outbox_c']);
    for (let round = 0; round < 6; round++) await playRound(round % 2 === 0 ? stack.gameServer : replicaB);
    // Spins on both replicas, one outbox: every win sent exactly once.
    const before = await winsSentOnce(stack, wins);

    const killedAt = Date.now();
    await stack.gameServer.abandon();
    await eventually(() => expect(replicaB.outbox.holding).toBe(true), 10_000);
    const tookOverAfterMs = Date.now() - killedAt;
    // The holder renewed at most a third of the ttl before it died: the lease ran at least two thirds more.
    expect(tookOverAfterMs).toBeGreaterThanOrEqual((TTL_MS * 2) / 3 - 20);
    process.stdout.write(
      `[replicas] game-server outbox taken over ${tookOverAfterMs} ms after its holder died (ttl ${TTL_MS} ms)\n`,
    );

    for (let round = 0; round < 6; round++) await playRound(replicaB);
    // A kill may cost one repeat of what its last checkpoint had not covered: at most 1 + 1 kill.
    const { after, repeats } = await winsSentAfterAKill(stack, wins, before);
    process.stdout.write(
      `[replicas] game-server wins: ${before.size} before the kill sent once each; ${after} after, ${repeats} sent twice\n`,
    );
  });
});

/**
 * Rounds played by players on game-server replicas of one stack, and the wins the replicas' outboxes
 * published for them: what the replica tests count to see each win sent once.
 */
import { expect } from '@jest/globals';
import { eventually } from '@reelstream/testing';
import type { GameServer } from '../../src/index.js';
import { call } from './http.js';
import type { Stack } from './stack.js';

export const spinAt = (server: GameServer, token: string, bet = 1) =>
  call('POST', `${server.url}/api/sessions/${token}/spin`, { json: { bet } });

/** Win requests published to wallet.requests per transactionId, before the dispatcher's de-duplication. */
export function winSends(stack: Stack): Map<number, number> {
  const sends = new Map<number, number>();
  for (const message of stack.published)
    if (message.command === 'win') sends.set(message.transactionId, (sends.get(message.transactionId) ?? 0) + 1);
  return sends;
}

/** Launches `players` (game 101) and returns how to play a round of all of them on a replica, and their wins. */
export async function replicaPlayers(stack: Stack, players: readonly string[]) {
  const tokens = await Promise.all(players.map(async (playerId) => (await stack.launch(playerId, 101)).token));
  return {
    wins: () => players.flatMap((playerId) => stack.transactions(playerId).filter((t) => t.command === 'win')),
    playRound: async (server: GameServer) => {
      for (const token of tokens) expect((await spinAt(server, token)).status).toBe(200);
    },
  };
}

/** Waits until every win the operator applied so far was published, then checks each was published once. */
export async function winsSentOnce(
  stack: Stack,
  wins: () => readonly { transactionId: number }[],
): Promise<Set<number>> {
  await eventually(() => expect(wins().length).toBeGreaterThan(0));
  const applied = new Set(wins().map((win) => win.transactionId));
  await eventually(() =>
    expect([...winSends(stack).keys()].filter((id) => applied.has(id))).toHaveLength(applied.size),
  );
  for (const id of applied) expect([id, winSends(stack).get(id)]).toEqual([id, 1]);
  return applied;
}

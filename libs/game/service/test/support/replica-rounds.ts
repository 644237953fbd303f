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
function winSends(stack: Stack): Map<number, number> {
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
      for (const token of tokens) {
        const { status, text } = await spinAt(server, token);
        // A refused spin shows its answer and what the stack logged as a warning or an error.
        const warnings = status === 200 ? [] : stack.logs.filter((line) => /"level":"(warn|error)"/.test(line));
        expect({ status, text: status === 200 ? '' : text, warnings }).toEqual({ status: 200, text: '', warnings: [] });
      }
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

/**
 * After one replica was killed: every win applied since (not in `before`) was published, none more than
 * twice (a kill may cost one repeat of what the last checkpoint had not covered), and the operator applied
 * each once (the dispatcher de-duplicated any repeat). Returns the wins since and how many were sent twice.
 */
export async function winsSentAfterAKill(
  stack: Stack,
  wins: () => readonly { transactionId: number }[],
  before: ReadonlySet<number>,
): Promise<{ after: number; repeats: number }> {
  const after = wins().filter((win) => !before.has(win.transactionId));
  expect(after.length).toBeGreaterThan(0);
  await eventually(() => {
    for (const win of after) expect(winSends(stack).get(win.transactionId)).toBeGreaterThanOrEqual(1);
  });
  for (const count of winSends(stack).values()) expect(count).toBeLessThanOrEqual(2);
  const applied = wins().map((win) => win.transactionId);
  expect(new Set(applied).size).toBe(applied.length);
  return { after: after.length, repeats: [...winSends(stack).values()].filter((count) => count > 1).length };
}

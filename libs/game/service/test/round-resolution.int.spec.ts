import { describe, expect, it } from '@jest/globals';
import { eventually } from '@reelstream/testing';
import { Stack } from './support/stack.js';

// A spin gives up on the wallet after 400 ms; the resolver takes rounds open for 1 s.
const stack = Stack.forTests({ gameServer: { walletTimeoutMs: 400, resolveAfterMs: 1_000 } });

describe('a paid round whose bet is answered after the spin gave up', () => {
  it('tells the player the round is pending, then settles it once with the same bet transaction and sends its win', async () => {
    const { token } = await stack.launch('slow_wallet', 101);
    stack.sandbox.faults.add({ playerId: 'slow_wallet', command: 'bet', latencyMs: 900, times: 1 });
    const response = await stack.spin(token, { bet: 1 });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe('WALLET_UNAVAILABLE');
    const roundId = Number(response.body.error.details[0].message);

    await eventually(
      async () => expect(await stack.roundEvents(roundId)).toEqual(['RoundStarted', 'RoundSettled']),
      10_000,
    );
    // The resolver asks again until it is answered: once, or more often when a busy machine makes
    // its 400 ms wait run out again. Every time it is the very same request, then one win.
    await eventually(() => {
      const commands = stack.publishedFor('slow_wallet').map((request) => request.command);
      expect(commands.at(-1)).toBe('win');
      expect(commands.filter((command) => command === 'win')).toHaveLength(1);
      expect(commands.filter((command) => command === 'bet').length).toBeGreaterThanOrEqual(2);
    }, 5_000);
    const [first, ...again] = stack.publishedFor('slow_wallet').filter((request) => request.command === 'bet');
    // The dispatcher answers each from its record; the operator applies one bet.
    for (const resent of again) expect(resent).toEqual(first);
    await eventually(() =>
      expect(stack.transactions('slow_wallet').map((transaction) => transaction.command)).toEqual(['bet', 'win']),
    );
  });
});

describe('a round left open by a game-server that stopped', () => {
  it('is found by the next game-server from the held-back checkpoint and resolved', async () => {
    // Only one game-server at a time here: the stack's own would resolve the round itself.
    await stack.gameServer.stop(1_000);
    const spinAt = (url: string, token: string) =>
      fetch(`${url}/api/sessions/${token}/spin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ bet: 1 }),
      });
    const patient = await stack.startGameServer(
      { gameServer: { walletTimeoutMs: 400, resolveAfterMs: 60_000 } },
      'game-server-patient',
    );
    const { token } = await stack.launch('restarted', 102);
    stack.sandbox.faults.add({ playerId: 'restarted', command: 'bet', latencyMs: 700, times: 1 });
    // Another round settles after it, so the outbox checkpoint would pass the open round if it were not held.
    const response = await spinAt(patient.url, token);
    expect(response.status).toBe(503);
    const roundId = Number(
      ((await response.json()) as { error: { details: { message: string }[] } }).error.details[0]?.message,
    );
    const later = await stack.launch('restarted_later', 102);
    expect((await spinAt(patient.url, later.token)).status).toBe(200);
    await eventually(() => expect(patient.outbox.openRounds().map((round) => round.roundId)).toEqual([roundId]));
    // The late bet answer arrives while nobody waits for it; the round stays open in the store.
    await new Promise((resolve) => setTimeout(resolve, 800));
    await patient.stop(1_000);
    expect(await stack.roundEvents(roundId)).toEqual(['RoundStarted']);

    const next = await stack.startGameServer(
      { gameServer: { walletTimeoutMs: 2_000, resolveAfterMs: 1_000 } },
      'game-server-next',
    );
    try {
      await eventually(
        async () => expect(await stack.roundEvents(roundId)).toEqual(['RoundStarted', 'RoundSettled']),
        10_000,
      );
      await eventually(() =>
        expect(stack.transactions('restarted').map((transaction) => transaction.command)).toEqual(['bet', 'win']),
      );
    } finally {
      await next.stop(1_000);
    }
  });
});

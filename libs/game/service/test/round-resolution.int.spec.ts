import { describe, expect, it } from '@jest/globals';
import { ReelstreamError } from '@reelstream/contracts';
import { eventually } from '@reelstream/testing';
import { Stack } from './support/stack.js';

/** The error the bus refuses the next request of each player with, once. */
const refuseNextRequestOf = new Map<string, Error>();

// A spin gives up on the wallet after 400 ms; the resolver takes rounds open for 1 s.
const stack = Stack.forTests({
  gameServer: { walletTimeoutMs: 400, resolveAfterMs: 1_000 },
  beforeGameServerRequest: async (_topic, message) => {
    const { playerId } = message.value as { playerId: string };
    const refusal = refuseNextRequestOf.get(playerId);
    refuseNextRequestOf.delete(playerId);
    if (refusal) throw refusal;
  },
});

/**
 * The player's wallet requests are one bet, sent once or again (the resolver asks again when a busy machine
 * makes its 400 ms wait run out; every time the very same request), then one win. Returns the bet.
 */
function expectOneRequestResentThenWin(playerId: string) {
  const requests = stack.publishedFor(playerId);
  expect(requests.map((request) => request.command).at(-1)).toBe('win');
  const [bet, ...again] = requests.slice(0, -1);
  expect(bet?.command).toBe('bet');
  for (const resent of again) expect(resent).toEqual(bet);
  if (!bet) throw new Error(`no bet of ${playerId} was published`);
  return bet;
}

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

describe('a paid round whose bet the bus could not take', () => {
  it('tells the player the round is pending, then the resolver sends the one bet request of the round and settles the round', async () => {
    const { token } = await stack.launch('bus_refused', 101);
    // What the Kafka adapter throws while a partition's leader moves: retriable, for now.
    refuseNextRequestOf.set(
      'bus_refused',
      new ReelstreamError('SERVICE_UNAVAILABLE', 'Kafka: This server is not the leader for that topic-partition', {
        retriable: true,
      }),
    );
    const response = await stack.spin(token, { bet: 1 });
    expect(response.status).toBe(503);
    expect(response.body.error).toMatchObject({
      code: 'WALLET_UNAVAILABLE',
      details: [{ path: 'roundId', message: expect.stringMatching(/^\d+$/) }],
    });
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const roundId = Number(response.body.error.details[0].message);
    // What an SRE reads, and what the replica proof counts.
    const warning = stack.logs.find((line) => line.includes(`"roundId":${roundId}`) && line.includes('"level":"warn"'));
    expect(JSON.parse(warning ?? '{}')).toMatchObject({
      msg: 'bet not answered; the round is left to the resolver',
      reason: expect.stringContaining('the bus did not take it: Kafka: This server is not the leader'),
    });

    await eventually(
      async () => expect(await stack.roundEvents(roundId)).toEqual(['RoundStarted', 'RoundSettled']),
      10_000,
    );
    await eventually(() =>
      expect(stack.transactions('bus_refused').map((transaction) => transaction.command)).toEqual(['bet', 'win']),
    );
    // The refused sending never reached the bus: every bet on it is the resolver's one request.
    expectOneRequestResentThenWin('bus_refused');
  });

  it('answers an error the bus says will not pass as an internal error; the round still ends through the resolver', async () => {
    const { token } = await stack.launch('bus_broken', 101);
    refuseNextRequestOf.set('bus_broken', new Error('a bug in the bus adapter'));
    const response = await stack.spin(token, { bet: 1 });
    expect(response.body.error.code).toBe('INTERNAL');
    // The resolver sends the round's bet, then its win; the round ends once, the wallet applies each once.
    const bet = await eventually(() => expectOneRequestResentThenWin('bus_broken'), 10_000);
    const roundId = 'roundId' in bet ? bet.roundId : Number.NaN;
    expect(await stack.roundEvents(roundId)).toEqual(['RoundStarted', 'RoundSettled']);
    await eventually(() =>
      expect(stack.transactions('bus_broken').map((transaction) => transaction.command)).toEqual(['bet', 'win']),
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
    await eventually(() =>
      expect(stack.transactions('restarted').map((transaction) => transaction.command)).toEqual(['bet']),
    );
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

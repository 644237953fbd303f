import { describe, expect, it } from '@jest/globals';
import { eventually } from '@reelstream/testing';
import { playerSessionResponse, spinResponse } from '@reelstream/contracts';
import { call } from './support/http.js';
import { Stack } from './support/stack.js';

const stack = Stack.forTests();

describe('a paid spin (docs/architecture.md flow 3)', () => {
  it('bets through the dispatcher, plays the round and sends one win with isRoundFinished; the balance is the operator’s', async () => {
    const { token } = await stack.launch('paid_ok', 101);
    stack.fund('paid_ok', 50);
    const response = await stack.spin(token, { bet: 1 });
    expect(response.status).toBe(200);
    const result = spinResponse.parse(response.body).data;
    expect(result).toMatchObject({ kind: 'paid', bet: 1, bonus: null });
    expect(await stack.roundEvents(result.roundId)).toEqual(['RoundStarted', 'RoundSettled']);

    const requests = await eventually(() => {
      const found = stack.publishedFor('paid_ok');
      expect(found.map((request) => request.command)).toEqual(['bet', 'win']);
      return found;
    });
    expect(requests[0]).toMatchObject({
      command: 'bet',
      roundId: result.roundId,
      amountMinor: 100,
      isBonusBusy: false,
      bonusId: 0,
      gameId: 101,
      providerId: 1,
      currency: 'EUR',
    });
    expect(requests[1]).toMatchObject({
      command: 'win',
      roundId: result.roundId,
      amountMinor: Math.round(result.win * 100),
      isRoundFinished: true,
      bonusId: 0,
    });
    await eventually(() => expect(stack.balanceMinor('paid_ok')).toBe(5000 - 100 + Math.round(result.win * 100)));
    // The spin answers with the bet's answer; its win is pending until the wallet's answer to it is recorded.
    expect(result).toMatchObject({ balance: 49, pendingWin: result.win });
    await eventually(async () =>
      expect(playerSessionResponse.parse((await stack.session(token)).body).data).toMatchObject({
        balance: (5000 - 100 + Math.round(result.win * 100)) / 100,
        pendingWin: 0,
      }),
    );
  });

  it('plays the instant game with one betwin and no separate win', async () => {
    const { token } = await stack.launch('paid_instant', 203);
    const response = await stack.spin(token, { bet: 0.5 });
    expect(response.status).toBe(200);
    const result = spinResponse.parse(response.body).data;
    expect(result.outcome.kind).toBe('instant');
    const requests = await eventually(() => {
      const found = stack.publishedFor('paid_instant');
      expect(found).toHaveLength(1);
      return found;
    });
    expect(requests[0]).toMatchObject({
      command: 'betwin',
      roundId: result.roundId,
      betMinor: 50,
      winMinor: Math.round(result.win * 100),
    });
    expect(stack.balanceMinor('paid_instant')).toBe(10_000 - 50 + Math.round(result.win * 100));
    // A betwin's answer includes the win: nothing is pending.
    expect(result).toMatchObject({ balance: (stack.balanceMinor('paid_instant') ?? Number.NaN) / 100, pendingWin: 0 });
  });

  it('plays a streamer session on the streamer profile (spec §2.3), recorded in the round', async () => {
    const { token } = await stack.launch('streamer_1', 201, { isStreamer: true });
    const result = spinResponse.parse((await stack.spin(token, { bet: 0.1 })).body).data;
    const [started, settled] = await stack.store.readStream(`round-${result.roundId}`);
    expect(started?.data).toMatchObject({ rtpProfile: 'streamer', kind: 'paid', betMinor: 10 });
    expect(settled?.data).toMatchObject({ outcome: { modelId: 'neon-fruits', profile: 'streamer', betMinor: 10 } });
  });

  it('refuses a bet that is not one of the game’s bet levels, before any wallet call', async () => {
    const { token } = await stack.launch('paid_level', 101);
    const response = await stack.spin(token, { bet: 0.3 });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ success: false, data: null, error: { code: 'BET_NOT_ALLOWED' } });
    expect((await stack.spin(token, {})).body.error.code).toBe('VALIDATION_FAILED');
    expect((await stack.spin(token, { bet: 0.205 })).body.error.code).toBe('AMOUNT_PRECISION');
    expect(stack.publishedFor('paid_level')).toEqual([]);
  });
});

describe('a paid spin the wallet refuses: no win is sent and the round is canceled', () => {
  it.each([
    [
      'insufficient funds (a real balance too low)',
      'refuse_money',
      null,
      409,
      'INSUFFICIENT_FUNDS',
      'ERR_NOT_ENOUGH_MONEY',
    ],
    [
      'not authenticated',
      'refuse_auth',
      'ERR_NOT_AUTHENTICATED',
      403,
      'PLAYER_NOT_AUTHENTICATED',
      'ERR_NOT_AUTHENTICATED',
    ],
    ['an operator error', 'refuse_error', 'ERR_UNKNOWN', 409, 'BET_REJECTED', 'ERR_UNKNOWN'],
  ] as const)('%s', async (_name, playerId, fault, status, code, statusCode) => {
    const { token } = await stack.launch(playerId, 102);
    if (fault === null) stack.fund(playerId, 0.1);
    else stack.sandbox.faults.add({ playerId, command: 'bet', statusCode: fault });
    const response = await stack.spin(token, { bet: 1 });
    const [bet] = stack.publishedFor(playerId);
    expect(bet?.command).toBe('bet');
    const roundId = bet && 'roundId' in bet ? bet.roundId : 0;
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({
      success: false,
      data: null,
      error: {
        code,
        details: [
          { path: 'statusCode', message: statusCode },
          { path: 'roundId', message: String(roundId) },
        ],
      },
    });
    const events = await stack.store.readStream(`round-${roundId}`);
    expect(events.map((event) => event.type)).toEqual(['RoundStarted', 'RoundCanceled']);
    expect((events[1]?.data as { reason: string }).reason).toMatch(new RegExp(`^bet_rejected:${statusCode}`));
    // The dispatcher reverts the round with a cancel callback (D9), and no win ever follows.
    await eventually(() =>
      expect(
        stack.sandbox.views.requests({ operatorId: 'casino-t', playerId }).map((request) => request.command),
      ).toEqual(['bet', 'cancel']),
    );
    await stack.tapCaughtUp();
    expect(stack.publishedFor(playerId).map((request) => request.command)).toEqual(['bet']);
  });
});

describe('what a player sees of an operator failure: a plain message and the status code, the detail only in the log', () => {
  it.each([
    ['the wallet answers HTTP 502 with a JSON body', 'leak_http', { httpStatus: 502 }, /injected fault|HTTP 502/],
    ['the wallet drops the connection', 'leak_reset', { dropConnection: true }, /ECONNRESET|socket hang up/],
  ] as const)('%s', async (_name, playerId, fault, detail) => {
    const { token } = await stack.launch(playerId, 102);
    stack.sandbox.faults.add({ playerId, command: 'bet', ...fault });
    const response = await stack.spin(token, { bet: 1 });
    const [bet] = stack.publishedFor(playerId);
    const roundId = bet && 'roundId' in bet ? bet.roundId : 0;
    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      success: false,
      message: "The operator's wallet rejected the bet; the round was canceled.",
      data: null,
      error: {
        code: 'BET_REJECTED',
        details: [
          { path: 'statusCode', message: 'ERR_UNKNOWN' },
          { path: 'roundId', message: String(roundId) },
        ],
      },
    });
    const round = await call('GET', `${stack.gameServer.url}/api/sessions/${token}/rounds/${roundId}`);
    expect(round.status).toBe(200);
    expect(round.body.data).toMatchObject({ roundId, status: 'canceled', reason: 'bet_rejected:ERR_UNKNOWN' });
    for (const answer of [response.text, round.text]) expect(answer).not.toMatch(detail);

    // The operator's own words are kept for the operator of the platform: in the log and in the round's record.
    const logged = stack.logs.filter(
      (line) => line.includes('refused the bet') && line.includes(`"roundId":${roundId}`),
    );
    expect(logged).toEqual([expect.stringMatching(detail)]);
    const events = await stack.store.readStream(`round-${roundId}`);
    expect((events[1]?.data as { reason: string }).reason).toMatch(detail);
  });
});

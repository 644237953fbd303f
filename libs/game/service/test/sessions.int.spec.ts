import { describe, expect, it } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import {
  eventToAppend,
  playerRoundResponse,
  playerSessionResponse,
  sessionKeyOf,
  sessionKeyStream,
  sessionStream,
  spinResponse,
} from '@reelstream/contracts';
import { eventually, gameSessionStarted } from '@reelstream/testing';
import { call } from './support/http.js';
import { OPERATOR_ID, SESSION_TTL_MS, Stack } from './support/stack.js';

const stack = Stack.forTests();

describe('probes', () => {
  it('answers /healthz and /readyz (the event store answers)', async () => {
    expect((await call('GET', `${stack.gameServer.url}/healthz`)).body).toEqual({ status: 'ok' });
    expect((await call('GET', `${stack.gameServer.url}/readyz`)).body).toEqual({ status: 'ready' });
    expect((await call('GET', `${stack.gameServer.url}/api/nothing`)).body.error.code).toBe('ROUTE_NOT_FOUND');
  });
});

describe('the launch URL and the session (D23)', () => {
  it('serves the game page for a launched session, and the session as the page needs it', async () => {
    const { url, token } = await stack.launch('viewer', 201, { language: 'ko' });
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await page.text()).toContain('assets/game.js');

    const session = playerSessionResponse.parse((await stack.session(token)).body).data;
    expect(session).toMatchObject({
      playerId: 'viewer',
      game: { gameId: 201, providerId: 2, name: 'Neon Fruits', type: 'slot' },
      layout: { kind: 'slot', reels: 5, rows: 3 },
      currency: 'EUR',
      language: 'ko',
      returnUrl: 'https://casino.example/lobby',
      demo: false,
      balance: null,
      pendingWin: 0,
      betLevels: [0.1, 0.2, 0.5, 1, 2, 5],
      activeBonus: null,
    });
  });

  it('refuses an unknown or malformed token with the API envelope and a clear launch page', async () => {
    for (const token of ['q3Yx0mVb7m2c1kTzV3dH0rFfQm8uJ6nE9sWc4aLpB2g', 'not a token']) {
      const response = await stack.session(encodeURIComponent(token));
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        success: false,
        message: 'No game session with this token exists.',
        data: null,
        error: { code: 'SESSION_NOT_FOUND' },
      });
      expect((await stack.spin(encodeURIComponent(token), { bet: 1 })).body.error.code).toBe('SESSION_NOT_FOUND');
    }
    const page = await fetch(`${stack.gameServer.url}/launch?token=q3Yx0mVb7m2c1kTzV3dH0rFfQm8uJ6nE9sWc4aLpB2g`);
    expect(page.status).toBe(404);
    const html = await page.text();
    expect(html).toContain('This game link is not valid');
    expect(html).toContain('유효하지 않은 게임 링크입니다');
    expect((await fetch(`${stack.gameServer.url}/launch`)).status).toBe(404);
  });

  it('refuses one spin while another of the same session is in progress (a double click)', async () => {
    const { token } = await stack.launch('double_click', 101);
    stack.sandbox.faults.add({ playerId: 'double_click', command: 'bet', latencyMs: 400, times: 1 });
    const firstSpin = stack.spin(token, { bet: 1 });
    // The second click while the first spin is in progress: its bet published, the wallet holding it 400 ms.
    await eventually(() => {
      if (!stack.publishedFor('double_click').some((request) => request.command === 'bet'))
        throw new Error("waited for the first spin's bet on wallet.requests (the spin in progress)");
    });
    const second = await stack.spin(token, { bet: 1 });
    const first = await firstSpin;
    expect(first.status).toBe(200);
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('SPIN_IN_PROGRESS');
    expect(stack.transactions('double_click').filter((transaction) => transaction.command === 'bet')).toHaveLength(1);
  });
});

describe('a token never grants access to another player', () => {
  it('refuses a spin that names another player, and charges nobody', async () => {
    const a = await stack.launch('player_a', 101);
    const response = await stack.spin(a.token, { bet: 1, playerId: 'player_b' });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('FORBIDDEN');
    expect(stack.publishedFor('player_a')).toEqual([]);
    expect(stack.publishedFor('player_b')).toEqual([]);
  });

  it('refuses player A’s token a free spin of player B’s bonus: B’s bonus is untouched, A is not charged', async () => {
    const bIssueId = await stack.registerFreeSpins({ playerId: 'owner_b', spinAmount: 5 });
    const a = await stack.launch('intruder_a', 101);
    const response = await stack.spin(a.token, { issueId: bIssueId, bet: 1 });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('BONUS_NOT_FOUND');
    expect((await stack.bonusStatus(bIssueId)).body.data).toMatchObject({
      status: 'active',
      spinsUsed: 0,
      spinsLeft: 5,
    });
    expect(stack.publishedFor('intruder_a')).toEqual([]);
    // A's session knows nothing of B's bonus.
    expect(playerSessionResponse.parse((await stack.session(a.token)).body).data.activeBonus).toBeNull();
  });

  it('lets a player read their own round and answers another player’s token as if the round did not exist', async () => {
    const b = await stack.launch('reader_b', 101);
    const played = spinResponse.parse((await stack.spin(b.token, { bet: 1 })).body).data;
    const own = await call('GET', `${stack.gameServer.url}/api/sessions/${b.token}/rounds/${played.roundId}`);
    expect(playerRoundResponse.parse(own.body).data).toMatchObject({
      roundId: played.roundId,
      kind: 'paid',
      status: 'settled',
      bet: 1,
      win: played.win,
      outcome: played.outcome,
    });

    const a = await stack.launch('reader_a', 101);
    const other = await call('GET', `${stack.gameServer.url}/api/sessions/${a.token}/rounds/${played.roundId}`);
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('ROUND_NOT_FOUND');
  });
});

describe('an expired session', () => {
  it('is refused by the player API (SESSION_EXPIRED) and shows the expired page with the way back', async () => {
    const { url, token } = await stack.launch('late_player', 101, { language: 'ja' });
    expect((await stack.session(token)).status).toBe(200);
    stack.gameClock.advance(SESSION_TTL_MS + 1_000);
    try {
      const session = await stack.session(token);
      expect(session.status).toBe(409);
      expect(session.body.error.code).toBe('SESSION_EXPIRED');
      const spin = await stack.spin(token, { bet: 1 });
      expect(spin.status).toBe(409);
      expect(spin.body.error.code).toBe('SESSION_EXPIRED');
      const page = await fetch(url);
      expect(page.status).toBe(410);
      const html = await page.text();
      expect(html).toContain('ゲームセッションの有効期限が切れました');
      expect(html).toContain('href="https://casino.example/lobby"');
      expect(stack.publishedFor('late_player')).toEqual([]);
    } finally {
      stack.gameClock.advance(-(SESSION_TTL_MS + 1_000));
    }
  });
});

describe('a demo session (GameSessionStarted.demo)', () => {
  it('plays with play money kept by the game-server: no wallet request, no stored round, no bonus', async () => {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const started = {
      type: 'GameSessionStarted' as const,
      data: gameSessionStarted({
        token: sessionKeyOf(token),
        operatorId: OPERATOR_ID,
        playerId: 'demo_player',
        startedAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + 3_600_000).toISOString(),
        demo: true,
      }),
    };
    // Written as the gateway writes a launch (the gateway's demo launch option is wired separately).
    await stack.store.append(
      sessionKeyStream(sessionKeyOf(token)),
      [
        eventToAppend(started, {
          correlationId: 'demo-test',
          causationId: 'demo-test',
          operatorId: OPERATOR_ID,
          occurredAt: now.toISOString(),
        }),
      ],
      { expectedRevision: 'no_stream' },
    );

    expect(playerSessionResponse.parse((await stack.session(token)).body).data).toMatchObject({
      demo: true,
      balance: 1_000,
      pendingWin: 0,
      activeBonus: null,
    });
    const result = spinResponse.parse((await stack.spin(token, { bet: 10 })).body).data;
    expect(result).toMatchObject({ kind: 'demo', bet: 10, bonus: null });
    expect(result.balance).toBe(Math.round((1_000 - 10 + result.win) * 100) / 100);
    expect(playerSessionResponse.parse((await stack.session(token)).body).data.balance).toBe(result.balance);
    expect(await stack.roundEvents(result.roundId)).toEqual([]);
    expect((await stack.spin(token, { issueId: 5 })).body.error.code).toBe('BONUS_NOT_FOUND');
    expect(stack.publishedFor('demo_player')).toEqual([]);
  });
});

describe('the launch token and the event log', () => {
  it('keeps no launch token in the log: the session stream, GameSessionStarted and RoundStarted carry its SHA-256', async () => {
    const { token } = await stack.launch('hashed_token', 101);
    const spin = await stack.spin(token, { bet: 1 });
    expect(spin.status).toBe(200);
    const key = createHash('sha256').update(token).digest('hex');
    const events = await stack.store.readAll();
    const session = events.filter((event) => event.streamId === `session-sha256.${key}`);
    expect(session.map((event) => [event.type, (event.data as { token: string }).token])).toEqual([
      ['GameSessionStarted', key],
    ]);
    const roundStarted = events.find(
      (event) => event.type === 'RoundStarted' && (event.data as { playerId: string }).playerId === 'hashed_token',
    );
    expect((roundStarted?.data as { sessionToken: string } | undefined)?.sessionToken).toBe(key);
    expect(events.filter((event) => JSON.stringify(event).includes(token))).toEqual([]);
    expect((await stack.session(token)).status).toBe(200);
    expect((await stack.session(key)).status).toBe(404);
  });

  it('plays a session a launch wrote under its token (session-<token>, before the log held keys) until it expires', async () => {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const started = {
      type: 'GameSessionStarted' as const,
      data: gameSessionStarted({
        token,
        operatorId: OPERATOR_ID,
        playerId: 'legacy_token',
        startedAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + 3_600_000).toISOString(),
      }),
    };
    await stack.store.append(
      sessionStream(token),
      [
        eventToAppend(started, {
          correlationId: 'legacy-test',
          causationId: 'legacy-test',
          operatorId: OPERATOR_ID,
          occurredAt: now.toISOString(),
        }),
      ],
      { expectedRevision: 'no_stream' },
    );
    expect(playerSessionResponse.parse((await stack.session(token)).body).data).toMatchObject({
      playerId: 'legacy_token',
      demo: false,
    });
    expect((await stack.spin(token, { bet: 1 })).status).toBe(200);
    expect(stack.transactions('legacy_token').map((transaction) => transaction.command)).toContain('bet');
  });
});

/**
 * A bet is never sent after its deadline, end to end: the platform's services each in its own
 * process from their mains (gateway, bonus-ledger, wallet-dispatcher, game-server on one SQLite
 * file), the operator's wallet a small HTTP server of this test that records when each callback
 * arrives. The dispatcher is stopped (SIGSTOP) for 8 s while players spin, then let go on
 * (SIGCONT): no bet whose deadline (requestedAt + 3 s) passed in the pause reaches the wallet, none
 * sent after it arrives late, every round ends, canceled or settled, every cancel is acknowledged,
 * and the wallet's balances are what the rounds say.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@reelstream/testing';
import { AppProcess } from './support/app-process.js';
import { OperatorClient, PlayerClient, type OperatorAccount } from './support/clients.js';

const OPERATOR: OperatorAccount = {
  id: 'e2e',
  token: 'e2e-api-token-0123456789abcdef',
  currency: 'EUR',
  timeZone: 'Asia/Seoul',
};
const PLAYERS = ['dl_1', 'dl_2', 'dl_3', 'dl_4'];
const START_CENTS = 100_000;
const BET = 0.2;
/** How late past its deadline a bet sent in time may arrive: the transit between two processes on a loaded 2-core machine. */
const TRANSIT_ALLOWANCE_MS = 1_000;
/**
 * How long the dispatcher is stopped. A bet requested in its first 5 s times out in it (3 s deadline), so even when a
 * loaded machine takes seconds to bring a spin to the game-server, the first spins of the pause meet a stopped wallet;
 * the spins of its last 3 s are sent after it, in their window.
 */
const PAUSE_MS = 8_000;

interface Arrival {
  readonly command: string;
  readonly transactionId: number;
  readonly at: number;
}

/** The operator's wallet: balances in cents, each transaction applied once, a cancel reverting its bet (D9). */
class RecordingWallet {
  readonly arrivals: Arrival[] = [];
  readonly balances = new Map<string, number>();
  private readonly applied = new Map<number, { playerId: string; changeCents: number }>();
  private readonly canceled = new Set<number>();
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const at = Date.now();
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const body = JSON.parse(text) as Record<string, unknown>;
        this.arrivals.push({ command: String(body['command']), transactionId: Number(body['transactionId']), at });
        const balance = this.apply(body);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ statusCode: 'OK', balance: balance / 100 }));
      });
    });
    this.server.listen(0, '127.0.0.1');
    await new Promise((resolve) => this.server?.once('listening', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/wallet/e2e`;
  }

  private apply(body: Record<string, unknown>): number {
    const playerId = String(body['playerId']);
    const transactionId = Number(body['transactionId']);
    const cents = (units: unknown) => Math.round(Number(units ?? 0) * 100);
    const balance = () => this.balances.get(playerId) ?? START_CENTS;
    const change = (changeCents: number) => {
      this.applied.set(transactionId, { playerId, changeCents });
      this.balances.set(playerId, balance() + changeCents);
    };
    if (this.applied.has(transactionId) || this.canceled.has(transactionId)) return balance();
    switch (body['command']) {
      case 'bet':
        change(-cents(body['amount']));
        break;
      case 'betwin':
        change(cents(body['winAmount']) - cents(body['betAmount']));
        break;
      case 'win':
        change(cents(body['amount']));
        break;
      case 'cancel': {
        const ref = Number(body['refTransactionId']);
        const reverted = this.applied.get(ref);
        this.canceled.add(ref);
        if (reverted) {
          this.applied.delete(ref);
          this.balances.set(playerId, balance() - reverted.changeCents);
        }
        this.applied.set(transactionId, { playerId, changeCents: 0 });
        break;
      }
    }
    return balance();
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'bet-deadline-e2e-'));
const wallet = new RecordingWallet();
const processes = new Map<string, AppProcess>();
let operator: OperatorClient;
let gameUrl = '';

beforeAll(async () => {
  await wallet.start();
  const env = {
    OTEL_SDK_DISABLED: 'true',
    LOG_LEVEL: 'info',
    OPERATORS_FILE: '',
    OPERATORS_JSON: JSON.stringify([
      {
        id: OPERATOR.id,
        name: 'E2E Casino',
        apiToken: OPERATOR.token,
        callbackUrl: wallet.url,
        signingSecret: 'e2e-signing-secret-0123456789',
        currency: OPERATOR.currency,
        timeZone: OPERATOR.timeZone,
      },
    ]),
    DATA_DIR: dataDir,
    HEALTH_PORT: '0',
    GAME_PORT: '0',
    GATEWAY_PORT: '0',
    WALLET_TIMEOUT_MS: '3500',
    ROUND_RESOLVE_AFTER_MS: '4000',
  };
  const main = (app: string) => join('apps', app, 'src', 'main.ts');
  for (const app of ['bonus-ledger', 'wallet-dispatcher', 'game-server'])
    processes.set(app, new AppProcess(app, main(app), env));
  const ready = await Promise.all([...processes.values()].map((process) => process.ready(120_000)));
  gameUrl = String(ready[2]?.['url']);
  const gateway = new AppProcess('gateway', main('gateway'), { ...env, LAUNCH_BASE_URL: gameUrl });
  processes.set('gateway', gateway);
  const gatewayUrl = String((await gateway.ready(120_000))['url']);
  operator = new OperatorClient(() => gatewayUrl, OPERATOR);
}, 300_000);

afterAll(async () => {
  for (const process of processes.values()) {
    process.child.kill('SIGCONT');
    await process.kill('SIGTERM');
  }
  await wallet.stop();
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('a dispatcher paused for 8 s while players spin', () => {
  it('sends no bet after its deadline; every round ends, every cancel is acknowledged, the balances reconcile', async () => {
    const players = await Promise.all(
      PLAYERS.map(async (playerId) => new PlayerClient(() => gameUrl, await operator.launch(playerId))),
    );
    // Every player's first spin with the dispatcher running: settled, the bets in time.
    for (const player of players) expect((await player.spin({ bet: BET })).status).toBe(200);

    const dispatcher = processes.get('wallet-dispatcher');
    if (!dispatcher?.child.pid) throw new Error('no dispatcher process');
    dispatcher.child.kill('SIGSTOP');
    const pausedAt = Date.now();
    const resumeAt = Date.now() + PAUSE_MS;
    const resumed = new Promise<number>((resolve) =>
      setTimeout(() => {
        dispatcher.child.kill('SIGCONT');
        resolve(Date.now());
      }, PAUSE_MS),
    );
    // Each player spins again and again while the dispatcher is stopped: each spin waits for its bet's answer
    // (3.5 s), so bets are requested early in the pause (their deadline passes in it) and late (it does not).
    // Each answer names its round: a settled spin in its data; a bet not answered in time (503), or refused (the
    // dispatcher, woken, answers a bet whose deadline passed in the pause as failed), in its details.
    const spins = (
      await Promise.all(
        players.map(async (player) => {
          const seen: { status: number; roundId: number }[] = [];
          while (Date.now() < resumeAt - 500) {
            const answer = await player.spin({ bet: BET });
            seen.push({ status: answer.status, roundId: roundIdOf(answer.body) });
          }
          return seen;
        }),
      )
    ).flat();
    const resumedAt = await resumed;
    expect(spins.map((spin) => spin.status)).toContain(503);

    // Every bet the platform recorded, once the wallet's work is done: none pending, every cancel acknowledged.
    const transactions = await eventually(
      async () => {
        const page = await operator.get('/v1/transactions?limit=500');
        expect(page.status).toBe(200);
        const items = page.body.data.items as {
          transactionId: number;
          roundId: number;
          command: string;
          status: string;
          attempts: number;
          requestedAt: string;
          cancel: { status: string } | null;
        }[];
        // The dispatcher records a bet when it takes the request off the bus: until it has worked through what
        // queued in the pause, the listing lacks those bets, and the ones it has may all be settled already.
        const listed = new Set(items.filter((item) => item.command === 'bet').map((item) => item.roundId));
        expect(spins.filter((spin) => !listed.has(spin.roundId))).toEqual([]);
        expect(items.filter((item) => item.status === 'pending')).toEqual([]);
        expect(items.filter((item) => item.cancel !== null && item.cancel.status !== 'succeeded')).toEqual([]);
        return items;
      },
      60_000,
      250,
    );
    const bets = transactions.filter((item) => item.command === 'bet');
    expect(bets.length).toBeGreaterThan(PLAYERS.length);
    const arrivals = new Map(wallet.arrivals.filter((a) => a.command === 'bet').map((a) => [a.transactionId, a.at]));
    const deadlineOf = (bet: { requestedAt: string }) => Date.parse(bet.requestedAt) + 3_000;
    // A bet whose deadline passed while the dispatcher was stopped never reached the wallet: the dispatcher
    // woke after it, and recorded the bet as timed out, never sent. There are such bets: the first spins of the pause.
    const stale = bets.filter((bet) => Date.parse(bet.requestedAt) > pausedAt && deadlineOf(bet) < resumedAt);
    expect(stale.length).toBeGreaterThan(0);
    expect(stale.filter((bet) => arrivals.has(bet.transactionId))).toEqual([]);
    for (const bet of stale)
      expect({ status: bet.status, attempts: bet.attempts }).toEqual({ status: 'failed', attempts: 0 });
    // One whose deadline came after the pause was sent only with at least MIN_SEND_WINDOW_MS (250 ms) of its window
    // left, so it reached the wallet by its deadline, give or take the time a loaded machine takes to carry a
    // request from one process to another (the allowance; on a quiet machine they arrive more than a second early).
    const late = bets
      .filter((bet) => arrivals.has(bet.transactionId))
      .map((bet) => ({ ...bet, lateByMs: (arrivals.get(bet.transactionId) ?? 0) - deadlineOf(bet) }))
      .filter((bet) => bet.lateByMs > TRANSIT_ALLOWANCE_MS);
    expect(late).toEqual([]);

    // Every round ended, once: settled (its bet and win applied) or canceled (its bet reverted or never applied).
    const expected = new Map(PLAYERS.map((playerId) => [playerId, START_CENTS]));
    for (const bet of bets) {
      const round = await eventually(
        async () => {
          const found = await operator.get(`/v1/rounds/${bet.roundId}`);
          expect(found.status).toBe(200);
          expect(['settled', 'canceled']).toContain(found.body.data.status);
          return found.body.data as { playerId: string; status: string; bet: number; win: number | null };
        },
        30_000,
        250,
      );
      expect(round.status === 'settled').toBe(bet.status === 'succeeded');
      if (round.status === 'settled')
        expected.set(
          round.playerId,
          (expected.get(round.playerId) ?? 0) - Math.round(round.bet * 100) + Math.round((round.win ?? 0) * 100),
        );
    }
    // The wins of settled rounds are delivered by the outbox: wait for them, then compare every balance.
    await eventually(
      () => {
        for (const playerId of PLAYERS) expect(wallet.balances.get(playerId)).toBe(expected.get(playerId));
      },
      30_000,
      250,
    );
  }, 240_000);
});

/** The round a spin's answer names: a settled spin's `data.roundId`, a refused one's `roundId` detail. */
function roundIdOf(body: {
  data?: { roundId?: number };
  error?: { code: string; details?: { path: string; message: string }[] };
}): number {
  const id = body.data?.roundId ?? body.error?.details?.find((detail) => detail.path === 'roundId')?.message;
  if (id === undefined) throw new Error(`a spin's answer names no round: ${JSON.stringify(body)}`);
  return Number(id);
}

/**
 * `npm start` against an operator's wallet that keeps balances as plain JavaScript numbers, served by
 * this test: it answers balances such as 99.89999999999999. The spec asks only that a balance be a
 * number, so every paid spin plays, and what the player and the operator API see is that balance
 * rounded half to even to the currency's minor units.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import Database from 'better-sqlite3';
import { tryParseAmount, tryRoundAmountHalfEven, formatAmount } from '@reelstream/money';
import { eventually } from '@reelstream/testing';
import { expectOk, OperatorClient, PlayerClient } from './support/clients.js';
import { E2E_SIGNING_SECRET, oneProcessCalling, type RunningPlatform } from './support/topologies.js';

jest.setTimeout(90_000);

type Callback = Record<string, unknown> & { command: string; transactionId: string | number; playerId: string };

/** A wallet as many operators write one: idempotent, signature-checking, balances in JavaScript numbers. */
class FloatWallet {
  /** 100 − 0.7 − 0.4 + 1 in binary floating point: 99.89999999999999. */
  static readonly OPENING = 100 - 0.7 - 0.4 + 1;
  readonly balances = new Map<string, number>();
  readonly received: { callback: Callback; answered: { balance: number; statusCode: string } }[] = [];
  private readonly done = new Map<string, { balance: number; statusCode: string }>();
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const callback = JSON.parse(raw.toString('utf8')) as Callback;
        const answered = this.signed(raw, req.headers['x-request-signature'])
          ? this.apply(callback)
          : { balance: this.balanceOf(callback.playerId), statusCode: 'ERR_INTEGRITY_CHECK_FAILED' };
        this.received.push({ callback, answered });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answered));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/wallet`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server?.close(() => resolve());
      this.server?.closeAllConnections();
    });
  }

  balanceOf(playerId: string): number {
    return this.balances.get(playerId) ?? FloatWallet.OPENING;
  }

  private signed(raw: Buffer, header: string | string[] | undefined): boolean {
    if (typeof header !== 'string' || !/^[0-9a-f]{64}$/.test(header)) return false;
    const expected = createHmac('sha256', E2E_SIGNING_SECRET).update(raw).digest();
    return timingSafeEqual(expected, Buffer.from(header, 'hex'));
  }

  private apply(callback: Callback): { balance: number; statusCode: string } {
    const id = String(callback.transactionId);
    const previous = this.done.get(id);
    if (previous) return { balance: this.balanceOf(callback.playerId), statusCode: previous.statusCode };
    let balance = this.balanceOf(callback.playerId);
    let statusCode = 'OK';
    const amount = Number(callback['amount'] ?? 0);
    if (callback.command === 'bet') {
      if (balance < amount) statusCode = 'ERR_NOT_ENOUGH_MONEY';
      else balance -= amount;
    } else if (callback.command === 'win') balance += amount;
    else if (callback.command === 'cancel') {
      const ref = this.received.find(
        (entry) => String(entry.callback.transactionId) === String(callback['refTransactionId']),
      );
      if (ref?.answered.statusCode === 'OK' && ref.callback.command === 'bet')
        balance += Number(ref.callback['amount']);
    } else statusCode = 'ERR_UNKNOWN';
    this.balances.set(callback.playerId, balance);
    const answered = { balance, statusCode };
    this.done.set(id, answered);
    return answered;
  }
}

/** What the player and the operator should see: the wallet's number rounded half to even to cents. */
const shown = (balance: number): number => {
  const rounded = tryRoundAmountHalfEven(balance, 'EUR');
  if (!rounded.ok) throw rounded.error;
  return formatAmount(rounded.minor, 'EUR');
};

describe('the platform as npm start runs it, against a wallet answering float balances', () => {
  const wallet = new FloatWallet();
  let dataDir: string;
  let platform: RunningPlatform | undefined;
  const current = () => {
    if (!platform) throw new Error('the platform did not start');
    return platform;
  };

  beforeAll(async () => {
    await wallet.start();
    dataDir = mkdtempSync(join(tmpdir(), 'reelstream-float-wallet-'));
    platform = await oneProcessCalling(wallet.url).start(dataDir);
  }, 120_000);

  afterAll(async () => {
    if (platform) await platform.stop('SIGKILL');
    await wallet.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('plays every paid spin (more than the 5 in a row that would open the circuit) and shows rounded balances', async () => {
    const operator = new OperatorClient(() => current().gatewayUrl, current().operator);
    const player = new PlayerClient(() => current().gameUrl, await operator.launch('float_player'));

    const spins = [];
    for (let spin = 0; spin < 7; spin += 1) {
      const response = expectOk(await player.spin({ bet: 0.2 }), `paid spin ${spin + 1}`);
      expect(response.body.data).toMatchObject({ kind: 'paid', currency: 'EUR', bet: 0.2 });
      spins.push(response.body.data as { roundId: number; balance: number });
    }

    const bets = wallet.received.filter((entry) => entry.callback.command === 'bet');
    expect(bets).toHaveLength(7);
    expect(bets.every((entry) => entry.answered.statusCode === 'OK')).toBe(true);
    // The wallet did answer floats: the first bet took 0.2 from 99.89999999999999.
    expect(bets[0]?.answered.balance).toBe(FloatWallet.OPENING - 0.2);
    expect(bets.filter((entry) => !tryParseAmount(entry.answered.balance, 'EUR').ok).length).toBeGreaterThan(0);
    expect(wallet.received.filter((entry) => entry.callback.command === 'cancel')).toEqual([]);
    // Each spin shows its bet's answer rounded to cents.
    expect(spins.map((spin) => spin.balance)).toEqual(bets.map((entry) => shown(entry.answered.balance)));
    expect(spins[0]?.balance).toBe(99.7);

    // Once the wins are answered, the session shows the wallet's last balance, rounded.
    const session = await eventually(async () => {
      const response = expectOk(await player.session(), 'session');
      expect(response.body.data.pendingWin).toBe(0);
      expect(wallet.received.filter((entry) => entry.callback.command === 'win')).toHaveLength(7);
      return response.body.data as { balance: number };
    }, 20_000);
    expect(session.balance).toBe(shown(wallet.balanceOf('float_player')));
    expect(tryParseAmount(session.balance, 'EUR').ok).toBe(true);

    // The operator API's transactions carry the rounded balance too.
    const transactions = expectOk(
      await operator.get('/v1/transactions?playerId=float_player&limit=50'),
      'transactions',
    );
    const items = transactions.body.data.items as { transactionId: string | number; balance: number | null }[];
    const betBalances = bets.map(
      (entry) => items.find((item) => String(item.transactionId) === String(entry.callback.transactionId))?.balance,
    );
    expect(betBalances).toEqual(bets.map((entry) => shown(entry.answered.balance)));

    // The record keeps each bet's balance as the wallet sent it, beside the rounded one, for the audit.
    const store = new Database(join(dataDir, 'reelstream.db'), { readonly: true, fileMustExist: true });
    try {
      const recorded = bets.map((entry) => {
        const data = store
          .prepare(`SELECT data FROM es_events WHERE stream_id LIKE ? AND type = 'WalletSucceeded'`)
          .pluck()
          .get(`walletTx-%${String(entry.callback.transactionId)}`) as string | undefined;
        return data === undefined ? undefined : (JSON.parse(data) as { balanceMinor: number; balanceSent?: number });
      });
      expect(recorded).toEqual(
        bets.map((entry) => {
          const minor = Math.round(shown(entry.answered.balance) * 100);
          const exact = tryParseAmount(entry.answered.balance, 'EUR').ok;
          return exact
            ? { statusCode: 'OK', balanceMinor: minor, at: expect.any(String) }
            : { statusCode: 'OK', balanceMinor: minor, balanceSent: entry.answered.balance, at: expect.any(String) };
        }),
      );
    } finally {
      store.close();
    }
  });
});

/**
 * The scheduled re-drive of dead-lettered wins end to end (docs/adr/0016-scheduled-win-redrive.md):
 * a real paid spin whose win the operator's wallet — an HTTP server of this test — refuses for a
 * while. The win is dead-lettered after its three attempts; `GET /v1/transactions` shows its next
 * scheduled re-drive; the dispatcher re-drives it on the operator's `winRedrive` schedule (every
 * second here) while the wallet still refuses, and once the wallet recovers the win is paid, once,
 * with its own transactionId, without anybody calling the re-drive API or CLI.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  listTransactionsResponse,
  spinResponse,
  walletTxStream,
  type OperatorTransaction,
} from '@reelstream/contracts';
import { eventually } from '@reelstream/testing';
import { signCallbackBody } from '@reelstream/wallet-domain';
import { SIGNING_SECRET, Stack } from './support/stack.js';

interface Callback {
  command: string;
  transactionId: string;
  amount?: number;
}

/** The operator's wallet: answers every bet OK, refuses wins with ERR_UNKNOWN while `refusing`, applies each transactionId once. */
function flakyWallet() {
  const state = {
    refusing: true,
    url: '',
    /** Every win callback received, by transactionId, in order. */
    winCalls: [] as { transactionId: string; answered: string }[],
    /** Wins credited: a transactionId is credited at most once, as the spec asks of the operator. */
    credited: new Map<string, number>(),
    badSignatures: 0,
  };
  let balance = 100;
  let server: Server | undefined;
  beforeAll(async () => {
    const started = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        if (request.headers['x-request-signature'] !== signCallbackBody(body, SIGNING_SECRET)) state.badSignatures += 1;
        const callback = JSON.parse(body.toString('utf8')) as Callback;
        let statusCode = 'OK';
        if (callback.command === 'bet') balance -= callback.amount ?? 0;
        if (callback.command === 'win') {
          if (state.refusing) statusCode = 'ERR_UNKNOWN';
          else if (!state.credited.has(callback.transactionId)) {
            state.credited.set(callback.transactionId, callback.amount ?? 0);
            balance += callback.amount ?? 0;
          }
          state.winCalls.push({ transactionId: callback.transactionId, answered: statusCode });
        }
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ balance: Math.round(balance * 100) / 100, statusCode }));
      });
    });
    server = started;
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
    state.url = `http://127.0.0.1:${(started.address() as AddressInfo).port}/wallet`;
  });
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));
  return state;
}

const wallet = flakyWallet();
const stack = Stack.forTests({
  callbackUrl: () => wallet.url,
  scheduledRedrive: { everySeconds: 1, forSeconds: 3_600, tickMs: 100 },
});
const PLAYER = 'redrive_player';

async function winOf(roundId: number): Promise<OperatorTransaction | undefined> {
  const response = await stack.operatorApi('GET', `/v1/transactions?playerId=${PLAYER}`);
  expect(response.status).toBe(200);
  return listTransactionsResponse
    .parse(response.body)
    .data.items.find((tx) => tx.roundId === roundId && tx.command === 'win');
}

describe('a dead-lettered win, re-driven by its schedule', () => {
  it('is paid once after the wallet recovers, without any re-drive asked for', async () => {
    const { token } = await stack.launch(PLAYER, 101);
    const spin = spinResponse.parse((await stack.spin(token, { bet: 1 })).body).data;

    const deadLettered = await eventually(async () => {
      const win = await winOf(spin.roundId);
      expect(win?.status).toBe('dead_lettered');
      return win as OperatorTransaction;
    }, 15_000);
    expect(deadLettered.attempts).toBeGreaterThanOrEqual(3);
    // The schedule shows: a second after the dead letter (or, if a re-drive already failed, after the latest).
    expect(deadLettered.nextRedriveAt).toEqual(expect.any(String));
    const transactionId = String(deadLettered.transactionId);

    // While the wallet still refuses, the schedule re-drives it (three more attempts) and it is dead-lettered again.
    const again = await eventually(async () => {
      const win = await winOf(spin.roundId);
      expect(win).toMatchObject({ status: 'dead_lettered', attempts: expect.any(Number) });
      expect(win?.attempts).toBeGreaterThanOrEqual(6);
      return win as OperatorTransaction;
    }, 15_000);
    expect(Date.parse(again.nextRedriveAt ?? '')).toBeGreaterThan(Date.parse(deadLettered.nextRedriveAt ?? ''));
    expect(wallet.winCalls.filter((call) => call.transactionId === transactionId).length).toBeGreaterThanOrEqual(6);
    wallet.refusing = false;

    const paid = await eventually(async () => {
      const win = await winOf(spin.roundId);
      expect(win?.status).toBe('succeeded');
      return win as OperatorTransaction;
    }, 15_000);
    expect(paid.nextRedriveAt).toBeNull();
    expect(wallet.credited.get(transactionId)).toBe(spin.win);
    expect(wallet.winCalls.filter((call) => call.answered === 'OK').map((call) => call.transactionId)).toEqual([
      transactionId,
    ]);
    expect(wallet.badSignatures).toBe(0);

    // Nobody asked: every re-drive on wallet.requests is the schedule's, naming the dead letter it re-drives.
    const redrives = stack.published.filter((message) => message.command === 'redrive');
    expect(redrives.length).toBeGreaterThanOrEqual(2);
    expect(redrives.every((message) => message.command === 'redrive' && message.deadLetter !== undefined)).toBe(true);
    const attempts = (await stack.store.readStream(walletTxStream(paid.transactionId)))
      .filter((event) => event.type === 'WalletAttempted')
      .map((event) => event.data as { redrive?: boolean; scheduled?: boolean });
    expect(attempts.filter((data) => data.redrive).every((data) => data.scheduled === true)).toBe(true);
  });
});

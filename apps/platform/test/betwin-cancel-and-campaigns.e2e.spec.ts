/**
 * Two money rules end to end, on `npm start` (one process) with two operators whose wallet is the
 * operator sandbox, driven over HTTP only (the operator API, the player API, the sandbox's admin API):
 * - a betwin the wallet applied but whose answer was lost is canceled, and the cancel gives back
 *   exactly the stake and takes back exactly the win (D9), to the cent of the wallet's balance;
 * - a campaign registers one bonus per player per operator: a player list naming a player twice is
 *   refused whole (nothing is registered), a resend registers nobody again, and the same playerId
 *   in two operators' campaigns is two players, one bonus each, each seen only by its operator.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { eventually, freePort } from '@reelstream/testing';
import {
  call,
  OperatorClient,
  PlayerClient,
  SandboxAdmin,
  type OperatorAccount,
  type SandboxTransaction,
} from './support/clients.js';
import { oneProcess, type RunningPlatform } from './support/topologies.js';

jest.setTimeout(120_000);

const CASINO_A: OperatorAccount = {
  id: 'casino-a',
  token: 'casino-a-api-token-0123456789',
  currency: 'EUR',
  timeZone: 'UTC',
};
const CASINO_B: OperatorAccount = {
  id: 'casino-b',
  token: 'casino-b-api-token-0123456789',
  currency: 'EUR',
  timeZone: 'UTC',
};

/** The instant game (Lucky Wheel, provider 2): its bet and outcome are one `betwin`. */
const INSTANT_GAME = 203;

let dataDir: string;
let platform: RunningPlatform | undefined;
const current = () => {
  if (!platform) throw new Error('the platform did not start');
  return platform;
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'reelstream-money-e2e-'));
  // The sandbox on a port known before the start, so that each operator's callback URL can name it.
  const sandboxPort = await freePort();
  const operators = [CASINO_A, CASINO_B].map((account) => ({
    id: account.id,
    name: account.id,
    apiToken: account.token,
    callbackUrl: `http://127.0.0.1:${sandboxPort}/wallet/${account.id}`,
    signingSecret: `${account.id}-signing-secret-0123456789`,
    currency: account.currency,
    timeZone: account.timeZone,
  }));
  platform = await oneProcess.start(dataDir, {
    env: { SANDBOX_PORT: String(sandboxPort), OPERATORS_JSON: JSON.stringify(operators) },
  });
}, 120_000);

afterAll(async () => {
  await platform?.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const operatorClient = (account: OperatorAccount) => new OperatorClient(() => current().gatewayUrl, account);

describe('the cancel of a betwin the wallet applied', () => {
  it('gives back exactly the stake and takes back exactly the win, to the cent of the wallet balance', async () => {
    const playerId = 'betwin_canceled';
    const operator = operatorClient(CASINO_A);
    const wallet = new SandboxAdmin(() => current().sandboxUrl, CASINO_A.id);
    const player = new PlayerClient(() => current().gameUrl, await operator.launch(playerId, INSTANT_GAME));
    await wallet.setBalance(playerId, 123.45);

    // Until a canceled betwin that won: each time the wallet applies the betwin and its answer is garbage.
    const canceled: { betwin: SandboxTransaction; cancel: SandboxTransaction }[] = [];
    for (let round = 0; round < 20 && !canceled.some(({ betwin }) => betwin.creditMinor > 0); round++) {
      const fault = await call('POST', `${current().sandboxUrl}/admin/faults`, {
        json: { operatorId: CASINO_A.id, playerId, command: 'betwin', malformedBody: true, applyFirst: true, times: 1 },
      });
      expect(fault.status).toBeLessThan(300);
      const spin = await player.spin({ bet: 0.5 });
      expect(spin.status).not.toBe(200);

      const pair = await eventually(async () => {
        const rows = await wallet.transactions(playerId);
        const betwin = rows.filter((row) => row.command === 'betwin').at(-1);
        const cancel = rows.find((row) => row.command === 'cancel' && row.refTransactionId === betwin?.transactionId);
        if (!betwin || !cancel) throw new Error('the cancel has not reached the wallet yet');
        return { betwin, cancel };
      }, 30_000);
      expect(canceled.map(({ betwin }) => betwin.transactionId)).not.toContain(pair.betwin.transactionId);
      canceled.push(pair);
    }

    const won = canceled.find(({ betwin }) => betwin.creditMinor > 0);
    if (!won) throw new Error(`no canceled betwin won in ${canceled.length} rounds`);
    for (const { betwin, cancel } of canceled) {
      expect(betwin).toMatchObject({ applied: true, debitMinor: 50, canceledBy: cancel.transactionId });
      // The cancel credits the stake and debits the win: the betwin's own amounts, crossed.
      expect(cancel).toMatchObject({
        statusCode: 'OK',
        applied: true,
        creditMinor: betwin.debitMinor,
        debitMinor: betwin.creditMinor,
      });
    }
    // Every betwin applied and reversed: the wallet holds what it held before the first, to the cent.
    expect(await wallet.balanceMinor(playerId)).toBe(12_345);
  });
});

describe('campaigns: one bonus per player per operator', () => {
  // One instant for every request: a resend must carry the same body, and an expiry taken from the clock
  // at each call differs once the calls straddle a second (409 PLATFORM_ID_CONFLICT instead of a replay).
  const expiresAt = new Date(Date.now() + 86_400_000);
  const terms = (operator: OperatorClient) => ({
    providerId: 1,
    gameId: 101,
    bonusType: 1,
    callAmount: 100,
    expireAt: operator.wallClock(expiresAt),
    metaData: { spinAmount: 5, baseBetAmount: 0.2 },
  });
  const start = (operator: OperatorClient, campaignId: string, players: string[]) =>
    call('POST', `${current().gatewayUrl}/v1/bonus-call/campaigns`, {
      token: operator.account.token,
      json: { campaignId, players, ...terms(operator) },
    });
  const bonusesOf = async (operator: OperatorClient, playerId: string) =>
    (await operator.get(`/v1/bonus-call?playerId=${playerId}`)).body.data.items as {
      issueId: number;
      platformId: string;
    }[];

  it('refuses a list naming a player twice, registers each player once, and keeps the operators apart', async () => {
    const a = operatorClient(CASINO_A);
    const b = operatorClient(CASINO_B);

    const twice = await start(a, 'dup-a', ['shared_player', 'only_a', 'shared_player']);
    expect(twice.status).toBe(400);
    expect(twice.body.error.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(twice.body.error.details)).toContain('players');
    expect((await a.get('/v1/bonus-call/campaigns/dup-a')).status).toBe(404);

    expect((await start(a, 'dup-a', ['shared_player', 'only_a'])).status).toBe(202);
    expect((await start(b, 'dup-b', ['shared_player'])).status).toBe(202);
    const resent = await start(a, 'dup-a', ['shared_player', 'only_a']);
    expect(resent.status).toBe(202);
    expect(resent.headers.get('idempotent-replayed')).toBe('true');

    for (const [operator, campaignId, total] of [
      [a, 'dup-a', 2],
      [b, 'dup-b', 1],
    ] as const)
      await eventually(async () => {
        const progress = (await operator.get(`/v1/bonus-call/campaigns/${campaignId}`)).body.data;
        expect(progress).toMatchObject({ state: 'completed', registered: total, refused: 0, pending: 0 });
      }, 30_000);

    // Once the ledger's read model has every registration: one bonus per player of each operator.
    await eventually(async () => {
      const ofA = await bonusesOf(a, 'shared_player');
      const ofB = await bonusesOf(b, 'shared_player');
      expect(ofA.map((bonus) => bonus.platformId)).toEqual(['dup-a:shared_player']);
      expect(ofB.map((bonus) => bonus.platformId)).toEqual(['dup-b:shared_player']);
      expect(ofA[0]?.issueId).not.toBe(ofB[0]?.issueId);
      expect((await bonusesOf(a, 'only_a')).map((bonus) => bonus.platformId)).toEqual(['dup-a:only_a']);
      expect(await bonusesOf(b, 'only_a')).toEqual([]);
    }, 30_000);
    // Another operator's bonus does not exist for it.
    const [ofB] = await bonusesOf(b, 'shared_player');
    expect((await a.get(`/v1/bonus-call/${ofB?.issueId}`)).status).toBe(404);
  });
});

/** The conformance kit passes against the reference wallet and fails, with its reasons, against a broken one. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { formatReport, runConformance, runWebhookConformance } from '../src/index.js';
import {
  operatorDirectory,
  startTestSandbox,
  testOperator,
  type TestSandbox,
} from '../../../sandbox/service/test/test-sandbox.js';
import { startBrokenWallet, type BrokenWallet } from './broken-wallet.js';

const SECRET = 'conformance-test-secret-01';
let sandbox: TestSandbox;
let broken: BrokenWallet;
let stakeOnly: BrokenWallet;
let stakeOnlyStamped: BrokenWallet;
let floatWallet: BrokenWallet;

beforeAll(async () => {
  const operators = operatorDirectory([
    testOperator('acme', SECRET),
    testOperator('numeric', SECRET, { currency: 'JPY', callbackIdEncoding: 'number' }),
    testOperator('stamped', SECRET, { signatureScheme: 'timestamp.body' }),
  ]);
  sandbox = await startTestSandbox('conformance', { operators });
  broken = await startBrokenWallet({ mode: 'broken', betwinDelayMs: 3_300 });
  stakeOnly = await startBrokenWallet({ mode: 'stake_only_cancel', secret: SECRET });
  stakeOnlyStamped = await startBrokenWallet({
    mode: 'stake_only_cancel',
    secret: SECRET,
    signatureScheme: 'timestamp.body',
  });
  floatWallet = await startBrokenWallet({ mode: 'float_balance', secret: SECRET });
});
afterAll(async () => {
  await sandbox?.stop();
  await broken?.stop();
  await stakeOnly?.stop();
  await stakeOnlyStamped?.stop();
  await floatWallet?.stop();
});

describe('against the operator sandbox', () => {
  it('every check passes', async () => {
    const report = await runConformance({ url: `${sandbox.url}/wallet/acme`, secret: SECRET, signatureScheme: 'body' });
    expect(report.results.filter((result) => !result.pass)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.results).toHaveLength(9);
    const table = formatReport(report);
    expect(table).toMatch(/9\/9 passed$/);
    expect(table.split('\n').filter((line) => / PASS /.test(line))).toHaveLength(9);
  });

  it('signs with timestamp.body unless told, as a new operator does, and checks a body operator when told', async () => {
    const stamped = await runConformance({
      url: `${sandbox.url}/wallet/stamped`,
      secret: SECRET,
      playerId: 'default_player',
    });
    expect(stamped.signatureScheme).toBe('timestamp.body');
    expect(stamped.results.filter((result) => !result.pass)).toEqual([]);
    expect(stamped.results.map((result) => result.name)).toContain(
      'signature: a request with a stale X-Request-Timestamp is refused (timestamp.body)',
    );
    const unstamped = await runConformance({
      url: `${sandbox.url}/wallet/acme`,
      secret: SECRET,
      playerId: 'default_player',
    });
    expect(unstamped.passed).toBe(false);
    expect(unstamped.results[0]?.reason).toMatch(/answered ERR_INTEGRITY_CHECK_FAILED, expected OK$/);
    for (const [operatorId, signatureScheme] of [
      ['acme', 'body'],
      ['stamped', 'timestamp.body'],
    ] as const) {
      const webhooks = await runWebhookConformance({ url: `${sandbox.url}/webhooks/${operatorId}`, secret: SECRET });
      expect({ operatorId, passed: webhooks.passed, scheme: webhooks.signatureScheme }).toEqual({
        operatorId,
        passed: signatureScheme === 'timestamp.body',
        scheme: 'timestamp.body',
      });
    }
  });

  it('with a signature over timestamp + "." + body, including the stale-timestamp check', async () => {
    const report = await runConformance({
      url: `${sandbox.url}/wallet/stamped`,
      secret: SECRET,
      signatureScheme: 'timestamp.body',
      playerId: 'stamped_player',
    });
    expect(report.results.filter((result) => !result.pass)).toEqual([]);
    expect(report.results.map((result) => result.name)).toContain(
      'signature: a request with a stale X-Request-Timestamp is refused (timestamp.body)',
    );
    expect(report.results).toHaveLength(10);
    expect(formatReport(report)).toMatch(/signature over timestamp\.body\)\n[\s\S]*10\/10 passed$/);
  });

  it('with numeric ids and a currency without decimals, too', async () => {
    const report = await runConformance({
      url: `${sandbox.url}/wallet/numeric`,
      secret: SECRET,
      signatureScheme: 'body',
      encoding: 'number',
      currency: 'JPY',
      playerId: 'yen_player',
    });
    expect(report.results.filter((result) => !result.pass)).toEqual([]);
  });

  it('with the wrong secret, the wallet is unusable and every check says why', async () => {
    const report = await runConformance({
      url: `${sandbox.url}/wallet/acme`,
      secret: 'not-the-operator-secret-00',
      signatureScheme: 'body',
    });
    expect(report.passed).toBe(false);
    expect(report.results[0]?.reason).toMatch(
      /^not run: the wallet must know player conformance_player \(EUR\) and accept a win of 0 answered ERR_INTEGRITY_CHECK_FAILED, expected OK$/,
    );
  });
});

describe('against a wallet that keeps balances as JavaScript numbers', () => {
  it('its float balances (99.89999999999999) are balances: every check passes, compared in minor units', async () => {
    const unsigned = await fetch(floatWallet.url, { method: 'POST', body: '{"command":"win"}' });
    expect(await unsigned.json()).toEqual({ balance: 99.89999999999999, statusCode: 'ERR_INTEGRITY_CHECK_FAILED' });
    const report = await runConformance({ url: floatWallet.url, secret: SECRET, signatureScheme: 'body' });
    expect(report.results.filter((result) => !result.pass)).toEqual([]);
    expect(formatReport(report)).toMatch(/9\/9 passed$/);
  });
});

describe('against a deliberately broken wallet', () => {
  it('fails every check, each for its own reason', async () => {
    const report = await runConformance({ url: broken.url, secret: SECRET, signatureScheme: 'body' });
    expect(report.passed).toBe(false);
    expect(report.results.filter((result) => result.pass)).toEqual([]);
    const [signature, replay, reused, money, betwin, cancelUnknown, cancelKnown, cancelBetwin, time] =
      report.results.map((result) => result.reason);
    expect(signature).toBe('a bet with a wrong signature answered OK, expected ERR_INTEGRITY_CHECK_FAILED');
    expect(replay).toMatch(/^the replay’s answer: balance [\d.]+, expected [\d.]+$/);
    expect(reused).toBe('its transactionId with amount 2 answered OK, expected not OK');
    expect(money).toBe('a bet of the balance + 1000 answered OK, expected ERR_NOT_ENOUGH_MONEY');
    expect(betwin).toMatch(/^after the refused betwin \(no part of it may stick\): balance [\d.-]+, expected [\d.-]+$/);
    expect(cancelUnknown).toBe('a cancel of a transaction never sent answered ERR_UNKNOWN, expected OK');
    expect(cancelKnown).toMatch(/^after three cancels: balance [\d.-]+, expected [\d.-]+$/);
    // Overdrawn by the money check, this wallet refuses the betwin itself; the stake-only variant below reaches the cancel.
    expect(cancelBetwin).toBe('a betwin of 2 winning 5 answered ERR_NOT_ENOUGH_MONEY, expected OK');
    expect(time).toMatch(
      /^2 answer\(s\) too late: betwin \d+ in 3\.\d\d s \(limit 3 s\), betwin \d+ in 3\.\d\d s \(limit 3 s\)$/,
    );
    const table = formatReport(report);
    expect(table.split('\n').filter((line) => / FAIL /.test(line))).toHaveLength(9);
    expect(table).toMatch(/0\/9 passed — the wallet is NOT conformant$/);
  }, 30_000);

  it('a wallet that refunds only the stake of a betwin fails exactly the betwin-cancel check', async () => {
    const report = await runConformance({ url: stakeOnly.url, secret: SECRET, signatureScheme: 'body' });
    expect(report.passed).toBe(false);
    expect(report.results.filter((result) => !result.pass)).toEqual([
      {
        name: 'cancel: a betwin’s cancel gives back the stake and takes back the win',
        pass: false,
        reason: 'after the betwin’s cancel (the whole betwin is reversed): balance 104, expected 99',
      },
    ]);
    expect(formatReport(report)).toMatch(/8\/9 passed — the wallet is NOT conformant$/);
  });

  it('with timestamp.body, a wallet that never checks the timestamp’s age fails the stale-timestamp check', async () => {
    const report = await runConformance({
      url: stakeOnlyStamped.url,
      secret: SECRET,
      signatureScheme: 'timestamp.body',
    });
    expect(report.results.filter((result) => !result.pass).map(({ name, reason }) => ({ name, reason }))).toEqual([
      {
        name: 'cancel: a betwin’s cancel gives back the stake and takes back the win',
        reason: 'after the betwin’s cancel (the whole betwin is reversed): balance 104, expected 99',
      },
      {
        name: 'signature: a request with a stale X-Request-Timestamp is refused (timestamp.body)',
        reason:
          'a correctly signed bet whose X-Request-Timestamp is 10 minutes old answered OK, expected ERR_INTEGRITY_CHECK_FAILED',
      },
    ]);
  });
});

describe('bonus webhook receiver checks', () => {
  it('pass against the sandbox receiver, with either signature scheme, and it applies each eventId once', async () => {
    for (const [operatorId, signatureScheme] of [
      ['acme', 'body'],
      ['stamped', 'timestamp.body'],
    ] as const) {
      const before = sandbox.webhooks.of(operatorId).length;
      const report = await runWebhookConformance({
        url: `${sandbox.url}/webhooks/${operatorId}`,
        secret: SECRET,
        signatureScheme,
      });
      expect(report.results.filter((result) => !result.pass)).toEqual([]);
      expect(formatReport(report)).toMatch(/^bonus webhook receiver conformance: .*\n[\s\S]*3\/3 passed$/);
      // The signed one once (its repeat changed nothing); the forged one not at all.
      expect(sandbox.webhooks.of(operatorId)).toHaveLength(before + 1);
    }
  });

  it('fail the forged-signature check against a receiver that accepts everything', async () => {
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(200).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const report = await runWebhookConformance({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        secret: SECRET,
      });
      expect(report.results.map((result) => result.pass)).toEqual([true, true, false]);
      expect(report.results[2]?.reason).toBe('HTTP 200');
      expect(report.passed).toBe(false);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

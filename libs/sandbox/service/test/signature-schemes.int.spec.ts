/**
 * The sandbox reads each operator's `signatureScheme`: `body` is D8 unchanged;
 * `timestamp.body` verifies the HMAC of `<X-Request-Timestamp>.<body>` and refuses a request
 * whose timestamp is more than 5 minutes old, so a captured callback cannot be replayed later.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { encodeCallback } from '@reelstream/contracts';
import { ManualClock } from '@reelstream/platform-ports';
import { betCallback, postRaw, sign } from './sandbox-client.js';
import { operatorDirectory, startTestSandbox, testOperator, type TestSandbox } from './test-sandbox.js';

const SECRET = 'scheme-test-secret-000001';
const clock = new ManualClock('2026-05-01T10:00:00.000Z');
const nowSeconds = () => Math.floor(clock.now().getTime() / 1_000);
let sandbox: TestSandbox;

beforeAll(async () => {
  const operators = operatorDirectory([
    testOperator('plain', SECRET),
    testOperator('stamped', SECRET, { signatureScheme: 'timestamp.body' }),
  ]);
  sandbox = await startTestSandbox('sandbox-schemes', { operators, clock });
});
afterAll(() => sandbox?.stop());

const betText = (playerId: string) => {
  const callback = betCallback(playerId, 1, nowSeconds());
  return JSON.stringify(encodeCallback(callback, 'string'));
};
const stampedPost = (text: string, timestamp: number, signature = sign(`${timestamp}.${text}`, SECRET)) =>
  postRaw(`${sandbox.url}/wallet/stamped`, text, signature, { 'x-request-timestamp': String(timestamp) });
const balance = (operatorId: string, playerId: string) => sandbox.views.accounts(operatorId, playerId)[0]?.balanceMinor;

describe('signatureScheme "timestamp.body"', () => {
  it('applies a callback signed over `<timestamp>.<body>` with a fresh timestamp', async () => {
    const text = betText('fresh');
    expect((await stampedPost(text, nowSeconds())).body).toEqual({ balance: 99, statusCode: 'OK' });
    clock.advance(300_000);
    expect((await stampedPost(betText('fresh'), nowSeconds() - 300)).body).toEqual({ balance: 98, statusCode: 'OK' });
  });

  it('refuses the same request replayed more than 5 minutes later with ERR_INTEGRITY_CHECK_FAILED, and moves no money', async () => {
    const text = betText('replayed');
    const stamp = nowSeconds();
    const signature = sign(`${stamp}.${text}`, SECRET);
    clock.advance(301_000);
    const replay = await stampedPost(text, stamp, signature);
    expect(replay.body).toEqual({
      balance: 0,
      statusCode: 'ERR_INTEGRITY_CHECK_FAILED',
      message: 'X-Request-Timestamp is 301 s old (more than 300 s): refused as a possible replay',
    });
    expect(sandbox.views.transactions({ operatorId: 'stamped', playerId: 'replayed' })).toEqual([]);
    expect(sandbox.views.requests({ playerId: 'replayed' }).map((entry) => entry.outcome)).toEqual(['bad_signature']);
  });

  it('refuses a body-only signature, a missing timestamp, and a timestamp other than the signed one', async () => {
    const text = betText('unstamped');
    const stamp = nowSeconds();
    expect((await stampedPost(text, stamp, sign(text, SECRET))).body).toMatchObject({
      statusCode: 'ERR_INTEGRITY_CHECK_FAILED',
    });
    expect((await postRaw(`${sandbox.url}/wallet/stamped`, text, sign(`${stamp}.${text}`, SECRET))).body).toMatchObject(
      { statusCode: 'ERR_INTEGRITY_CHECK_FAILED', message: expect.stringMatching(/X-Request-Timestamp must be/) },
    );
    expect((await stampedPost(text, stamp - 1, sign(`${stamp}.${text}`, SECRET))).body).toMatchObject({
      statusCode: 'ERR_INTEGRITY_CHECK_FAILED',
    });
    expect(balance('stamped', 'unstamped')).toBeUndefined();
  });
});

describe('signatureScheme "body" (the default, D8 unchanged)', () => {
  it('verifies the body alone, with or without a timestamp header, however old', async () => {
    const text = betText('plain_player');
    expect(
      (
        await postRaw(`${sandbox.url}/wallet/plain`, text, sign(text, SECRET), {
          'x-request-timestamp': String(nowSeconds() - 3_600),
        })
      ).body,
    ).toEqual({ balance: 99, statusCode: 'OK' });
    const other = betText('plain_player');
    expect((await postRaw(`${sandbox.url}/wallet/plain`, other, sign(other, SECRET))).body).toEqual({
      balance: 98,
      statusCode: 'OK',
    });
    expect(
      (await postRaw(`${sandbox.url}/wallet/plain`, betText('plain_player'), sign(`${nowSeconds()}.${other}`, SECRET)))
        .body,
    ).toMatchObject({ statusCode: 'ERR_INTEGRITY_CHECK_FAILED' });
  });
});

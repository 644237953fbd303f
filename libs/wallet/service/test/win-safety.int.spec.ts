/**
 * Win admission and delivery with a real dispatcher, the embedded bus and the operator sandbox:
 * a forged win published straight on `wallet.requests` never reaches the operator's wallet; a win
 * that cannot be delivered is a dead-letter event that `wallet:redrive` lists, dry-runs and
 * re-drives — and a re-drive of a win whose operator is still not configured fails and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Headers, playerKey, Topics } from '@reelstream/contracts';
import { systemClock } from '@reelstream/platform-ports';
import { eventually, recordWinSource } from '@reelstream/testing';
import { findDeadLetteredWins } from '@reelstream/wallet-application';
import { dryRunRedrive, listDeadLetters, runRedrive } from '../src/index.js';
import { startRig, unsourcedWin, winRequest, type Rig } from './rig.js';

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
}, 30_000);
afterAll(async () => {
  await rig?.stop();
});

const sentToWallet = (transactionId: number) => rig.sandbox.views.requests({ transactionId }).length;
const errorsAbout = (transactionId: number) =>
  rig.logs.filter((line) => line['level'] === 'error' && line['transactionId'] === transactionId);
const typesOf = async (transactionId: number) => (await rig.events(transactionId)).map((event) => event.type);

describe('a forged win on the bus', () => {
  it('with a valid schema but no source: answered non-OK, recorded as WinRefused, logged at error, never sent — also when delivered again', async () => {
    const forged = unsourcedWin('forger', 1_000_000);
    const reply = await rig.request(forged);
    expect(reply).toMatchObject({
      transactionId: forged.transactionId,
      statusCode: 'ERR_UNKNOWN',
      canceled: false,
      reason: expect.stringMatching(/^win refused \(no_source\), not sent/),
    });
    // Published again without reply-to, as a replaying attacker would.
    await rig.requester.publish(Topics.walletRequests, {
      key: playerKey(forged),
      value: forged,
      headers: { [Headers.messageType]: 'win' },
    });
    await eventually(() => expect(errorsAbout(forged.transactionId)).toHaveLength(2));
    expect(await typesOf(forged.transactionId)).toEqual(['WinRefused']);
    expect(errorsAbout(forged.transactionId).map((line) => line['reason'])).toEqual(['no_source', 'no_source']);
    expect(sentToWallet(forged.transactionId)).toBe(0);
  });

  it('whose amount differs from its source RoundSettled: refused as a mismatch, never sent', async () => {
    const genuine = await winRequest(rig.store, 'inflater', 500);
    const inflated = { ...genuine, amountMinor: 5_000_000 };
    const reply = await rig.request(inflated);
    expect(reply).toMatchObject({
      statusCode: 'ERR_UNKNOWN',
      reason: expect.stringMatching(/^win refused \(source_mismatch\).*amountMinor 5000000 \(source: 500\)/),
    });
    expect(await typesOf(genuine.transactionId)).toEqual(['WinRefused']);
    expect(errorsAbout(genuine.transactionId)).toEqual([expect.objectContaining({ reason: 'source_mismatch' })]);
    expect(sentToWallet(genuine.transactionId)).toBe(0);
  });
});

describe('a win that cannot be delivered is a dead-letter event the re-drive works with', () => {
  it('operator not configured: listed with its reason, dry-run changes nothing, re-drive fails and leaves it; configured, the re-drive applies it once', async () => {
    rig.sandbox.views.setBalance('late', 'latecomer', 'EUR', 10_000);
    const orphan = await recordWinSource(rig.store, unsourcedWin('latecomer', 700, 'late'));
    const reply = await rig.request(orphan);
    expect(reply).toMatchObject({
      statusCode: 'ERR_UNKNOWN',
      reason: expect.stringMatching(/^dead-lettered \(operator_not_configured\)/),
    });
    await eventually(() =>
      expect(rig.deadLetters.map((message) => message.value)).toContainEqual(
        expect.objectContaining({
          transactionId: orphan.transactionId,
          reason: 'operator_not_configured',
          attempts: 0,
        }),
      ),
    );

    const listed: string[] = [];
    await listDeadLetters(rig.store, { mode: 'list', operatorId: 'late', concurrency: 1, timeoutMs: 1_000 }, (line) =>
      listed.push(line),
    );
    expect(listed).toEqual([
      '1 dead-lettered win(s) of operator late',
      expect.stringMatching(
        new RegExp(
          `^${orphan.transactionId}  operator late  player latecomer  7\\.00 EUR  operator_not_configured  \\d{4}-\\d{2}-\\d{2}T.*  attempts 0  last error: operator late is not configured`,
        ),
      ),
    ]);
    const planned: string[] = [];
    await dryRunRedrive(rig.store, { mode: 'dry-run', operatorId: 'late', concurrency: 1, timeoutMs: 1_000 }, (line) =>
      planned.push(line),
    );
    expect(planned).toEqual([
      'dry run: would re-drive 1 of 1 dead-lettered win(s) of operator late; nothing is sent',
      `win ${orphan.transactionId} (operator late, player latecomer, 7.00 EUR), operator_not_configured: would re-drive`,
    ]);
    const eventsBefore = await typesOf(orphan.transactionId);

    const failed: string[] = [];
    const summary = await runRedrive(
      { store: rig.store, bus: rig.requester, clock: systemClock },
      { operatorId: 'late', concurrency: 1, timeoutMs: 30_000 },
      (line) => failed.push(line),
    );
    expect(summary).toEqual({ total: 1, applied: 0, failed: 1, noAnswer: 0 });
    expect(failed[1]).toMatch(
      /failed again: ERR_UNKNOWN \(operator late is not configured on this dispatcher: the win stays dead-lettered/,
    );
    expect(await typesOf(orphan.transactionId)).toEqual(eventsBefore);
    expect(
      (await findDeadLetteredWins(rig.store, { operatorId: 'late' })).map((letter) => letter.transactionId),
    ).toEqual([orphan.transactionId]);
    expect(sentToWallet(orphan.transactionId)).toBe(0);

    await rig.restartDispatcher({ configureLate: true });
    const applied = await runRedrive(
      { store: rig.store, bus: rig.requester, clock: systemClock },
      { operatorId: 'late', concurrency: 1, timeoutMs: 30_000 },
      () => undefined,
    );
    expect(applied).toEqual({ total: 1, applied: 1, failed: 0, noAnswer: 0 });
    expect(rig.sandbox.views.accounts('late', 'latecomer')[0]?.balanceMinor).toBe(10_700);
    expect(await findDeadLetteredWins(rig.store, { operatorId: 'late' })).toEqual([]);
  }, 60_000);
});

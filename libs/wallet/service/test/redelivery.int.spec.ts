/**
 * At-least-once in, exactly-once effect out: the walletTx stream is the record every redelivery
 * is checked against (docs/architecture.md "Data"), and the operator dedupes by transactionId.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics, walletReply, type WalletRequest } from '@reelstream/contracts';
import { eventually } from '@reelstream/testing';
import { WalletTxRepository } from '@reelstream/wallet-application';
import { callbackFor } from '@reelstream/wallet-domain';
import { BusHeaders, type Message } from '@reelstream/platform-ports';
import { HttpOperatorWallet } from '@reelstream/wallet-adapters';
import { betRequest, nextId, startRig, type Rig } from './rig.js';

let rig: Rig;
const parked: Message[] = [];

beforeAll(async () => {
  rig = await startRig();
  const watcher = await rig.requester.subscribe({
    groupId: 'redelivery-dlq',
    topics: [`${Topics.walletRequests}.dlq`],
    handler: async (message) => void parked.push(message),
  });
  await watcher.ready;
}, 30_000);
afterAll(() => rig?.stop());

const typesOf = (events: { type: string }[]) => events.map((event) => event.type);
const context = { correlationId: 'test', causationId: 'test', operatorId: 'rig', occurredAt: new Date().toISOString() };

describe('a redelivered request', () => {
  it('whose outcome is recorded is answered from the record without calling the operator again', async () => {
    const bet = betRequest('again_player', 700);
    const first = await rig.request(bet);
    const second = await rig.request(bet);
    expect(first).toEqual({ transactionId: bet.transactionId, statusCode: 'OK', balanceMinor: 9_300, canceled: false });
    expect(second).toEqual(first);
    expect(rig.sandbox.views.requests({ transactionId: bet.transactionId })).toHaveLength(1);
    expect(typesOf(await rig.events(bet.transactionId))).toEqual([
      'WalletRequested',
      'WalletAttempted',
      'WalletSucceeded',
    ]);
  });

  it('whose outcome a crash lost is sent again with the same transactionId, and the operator applies it once', async () => {
    const bet: WalletRequest = betRequest('crashed_player', 400);
    // What a dispatcher killed between the call and the record leaves behind: the attempt is
    // recorded, the wallet applied the bet, the answer never made it into the stream.
    const records = new WalletTxRepository(rig.store);
    let record = await records.load(bet.transactionId);
    record = await records.execute(
      record,
      { type: 'RecordRequest', data: { request: bet }, metadata: { now: context.occurredAt } },
      context,
    );
    await records.execute(record, { type: 'StartAttempt', data: {}, metadata: { now: context.occurredAt } }, context);
    const wallet = new HttpOperatorWallet();
    const operator = rig.operators.get('rig');
    if (!operator) throw new Error('the rig has no operator "rig"');
    const lost = await wallet.call(operator, callbackFor(bet), 3_000);
    await wallet.close();
    expect(lost).toEqual({ kind: 'reply', statusCode: 'OK', balance: 96 });

    const reply = await rig.request(bet);
    expect(reply).toEqual({ transactionId: bet.transactionId, statusCode: 'OK', balanceMinor: 9_600, canceled: false });
    const events = await rig.events(bet.transactionId);
    expect(events.map((event) => [event.type, event.data['attempt'], event.data['recovery']])).toEqual([
      ['WalletRequested', undefined, undefined],
      ['WalletAttempted', 1, undefined],
      ['WalletAttempted', 1, true],
      ['WalletSucceeded', undefined, undefined],
    ]);
    expect(rig.sandbox.views.requests({ transactionId: bet.transactionId }).map((entry) => entry.outcome)).toEqual([
      'applied',
      'replayed',
    ]);
    expect(rig.sandbox.views.accounts('rig', 'crashed_player')[0]?.balanceMinor).toBe(9_600);
  });
});

describe('messages the dispatcher cannot act on are refused and parked, never sent', () => {
  it('a transactionId reused with another request: ERR_UNKNOWN, parked, the recorded transaction stands', async () => {
    const bet = betRequest('reuse_player', 100);
    await rig.request(bet);
    // Another round whose RoundStarted names the same bet transactionId (an id handed out twice): its source matches, its transactionId is taken.
    const reply = await rig.request({ ...bet, roundId: nextId(), amountMinor: 99_900 });
    expect(reply).toMatchObject({
      transactionId: bet.transactionId,
      statusCode: 'ERR_UNKNOWN',
      canceled: false,
      reason: expect.stringMatching(/already used/),
    });
    await eventually(() =>
      expect(parked.some((message) => (message.value as { amountMinor?: number }).amountMinor === 99_900)).toBe(true),
    );
    expect(rig.sandbox.views.requests({ transactionId: bet.transactionId })).toHaveLength(1);
    expect(rig.sandbox.views.accounts('rig', 'reuse_player')[0]?.balanceMinor).toBe(9_900);
  });

  it('an invalid message and an unknown operator', async () => {
    await rig.requester.publish(Topics.walletRequests, { key: 'p', value: { command: 'bet', transactionId: 'x' } });
    const unknown = await rig.request(betRequest('nobody', 100, 'no-such-operator'));
    expect(unknown).toMatchObject({
      statusCode: 'ERR_UNKNOWN',
      reason: expect.stringMatching(/operator no-such-operator is not configured/),
    });
    await eventually(() => {
      const reasons = parked.map((message) => message.headers[BusHeaders.deadLetterReason]);
      expect(reasons).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^invalid wallet request: transactionId/),
          expect.stringMatching(/no-such-operator/),
        ]),
      );
    });
  });
});

describe('a pending cancel', () => {
  it('is retried with back-off while the wallet fails it, survives a restart, and takes effect once', async () => {
    rig.sandbox.views.setBalance('rig', 'cancel_player', 'EUR', 10_000);
    const refuseCancels = rig.sandbox.faults.add({
      operatorId: 'rig',
      playerId: 'cancel_player',
      command: 'cancel',
      httpStatus: 503,
    });
    const bet = betRequest('cancel_player', 1_000);
    rig.sandbox.faults.add({
      operatorId: 'rig',
      playerId: 'cancel_player',
      command: 'bet',
      statusCode: 'ERR_UNKNOWN',
      applyFirst: true,
      times: 1,
    });
    const reply = walletReply.parse(await rig.request(bet));
    expect(reply).toMatchObject({ statusCode: 'ERR_UNKNOWN', canceled: true });
    expect(rig.sandbox.views.accounts('rig', 'cancel_player')[0]?.balanceMinor).toBe(9_000);

    await eventually(
      () =>
        expect(rig.sandbox.faults.list().find((rule) => rule.id === refuseCancels.id)?.hits).toBeGreaterThanOrEqual(2),
      10_000,
    );
    await rig.restartDispatcher();
    rig.sandbox.faults.remove(refuseCancels.id);

    const events = await eventually(async () => {
      const found = await rig.events(bet.transactionId);
      expect(typesOf(found)).toContain('CancelSucceeded');
      return found;
    }, 20_000);
    const cancelAttempts = events.filter(
      (event) => event.type === 'WalletAttempted' && event.data['command'] === 'cancel',
    );
    expect(cancelAttempts.length).toBeGreaterThanOrEqual(3);
    const cancels = rig.sandbox.views
      .transactions({ operatorId: 'rig', playerId: 'cancel_player' })
      .filter((row) => row.command === 'cancel');
    expect(cancels).toEqual([
      expect.objectContaining({ cancelEffect: 'refunded', refTransactionId: bet.transactionId }),
    ]);
    expect(rig.sandbox.views.accounts('rig', 'cancel_player')[0]?.balanceMinor).toBe(10_000);
  }, 40_000);
});

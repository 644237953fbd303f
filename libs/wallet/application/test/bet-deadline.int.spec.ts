/**
 * A bet is never sent after its window (spec §6.1: the operator answers within 3 s of the spin):
 * a dispatcher that takes a bet late — it lagged, it was paused — records it as timed out without
 * calling the operator, and its round is canceled (D9), on the embedded store and bus with a
 * manual clock.
 */
import { describe, expect, it } from '@jest/globals';
import { parseStoredEvent, Topics, walletTxStream, type WalletBetRequest } from '@reelstream/contracts';
import { ManualClock, type Message } from '@reelstream/platform-ports';
import { eventually, recordStakeSource } from '@reelstream/testing';
import { dispatchContext, handleCancelDelivery, handleWalletRequest, WalletTxRepository } from '../src/index.js';
import { ScriptedWallet } from './scripted-wallet.js';
import { dispatchRig } from './support/dispatch-rig.js';

const rig = dispatchRig('bet-deadline', 11);
const { clock, deps, messageOf, types } = rig;

/** A bet as the game-server now sends it, due 3 s after it was requested, with its round's RoundStarted stored. */
const bet = (playerId: string): Promise<WalletBetRequest> => {
  const request = rig.bet('alpha', playerId);
  return recordStakeSource(rig.store, {
    ...request,
    deadline: new Date(Date.parse(request.requestedAt) + 3_000).toISOString(),
  });
};

/** The wallet.cancels message the record of `request` asks for. */
async function cancelOf(request: WalletBetRequest): Promise<Message> {
  const requested = (await rig.store.readStream(walletTxStream(request.transactionId)))
    .map(parseStoredEvent)
    .find((event) => event.type === 'CancelRequested');
  if (requested?.type !== 'CancelRequested') throw new Error(`no cancel requested for ${request.transactionId}`);
  return messageOf(
    {
      refTransactionId: request.transactionId,
      cancelTransactionId: requested.data.cancelTransactionId,
      operatorId: request.operatorId,
      playerId: request.playerId,
    },
    Topics.walletCancels,
  );
}

const stateOf = async (request: WalletBetRequest) =>
  (await new WalletTxRepository(rig.store).load(request.transactionId)).state;

describe('a bet taken after its deadline', () => {
  it('is never sent: recorded as timed out with no attempt, and only its cancel reaches the operator', async () => {
    const request = await bet('paused');
    clock.advance(5_000); // the dispatcher was paused for 5 s
    const wallet = new ScriptedWallet();
    await handleWalletRequest(dispatchContext(deps(wallet)), messageOf(request));

    expect(wallet.calls).toEqual([]);
    expect(await types(request.transactionId)).toEqual(['WalletRequested', 'WalletFailed', 'CancelRequested']);
    const state = await stateOf(request);
    expect(state).toMatchObject({ status: 'failed', attempts: 0, cancel: { succeeded: false } });
    expect(state.lastFailure?.reason).toContain(`its deadline ${request.deadline} had passed`);

    await handleCancelDelivery(dispatchContext(deps(wallet)), await cancelOf(request));
    expect(wallet.calls.map((call) => [call.command, 'refTransactionId' in call && call.refTransactionId])).toEqual([
      ['cancel', request.transactionId],
    ]);
    expect((await stateOf(request)).cancel?.succeeded).toBe(true);
  });

  it('is not sent with less than 250 ms of its window left; with more, it is sent with what is left as its limit', async () => {
    const late = await bet('nearly_over');
    const inTime = await bet('in_time');
    clock.advance(2_800);
    const wallet = new ScriptedWallet();
    await handleWalletRequest(dispatchContext(deps(wallet)), messageOf(late));
    expect(wallet.calls).toEqual([]);
    expect((await stateOf(late)).status).toBe('failed');

    clock.advance(-400); // 2.4 s after the spin: 600 ms left
    await handleWalletRequest(dispatchContext(deps(wallet)), messageOf(inTime));
    expect(wallet.calls.map((call) => call.transactionId)).toEqual([inTime.transactionId]);
    expect(wallet.limitsMs).toEqual([600]);
    expect((await stateOf(inTime)).status).toBe('succeeded');
  });

  it('without a deadline (a message from before deadlines were carried) is due 3 s after requestedAt', async () => {
    const { deadline: _none, ...old } = await bet('old_message');
    clock.advance(3_000);
    const wallet = new ScriptedWallet();
    await handleWalletRequest(dispatchContext(deps(wallet)), messageOf(old));
    expect(wallet.calls).toEqual([]);
    const state = (await new WalletTxRepository(rig.store).load(old.transactionId)).state;
    expect(state.status).toBe('failed');
    expect(state.cancel).toBeDefined();
  });

  it('whose attempt was recorded before a stall is not sent after it: its outcome is a time-out and the round is canceled', async () => {
    const request = await bet('stalled');
    const records = new WalletTxRepository(rig.store);
    const context = {
      correlationId: 'c',
      causationId: 'stall-1',
      operatorId: 'alpha',
      occurredAt: clock.now().toISOString(),
    };
    const now = { now: clock.now().toISOString() };
    await records.executeAll(
      await records.load(request.transactionId),
      [
        { type: 'RecordRequest', data: { request }, metadata: now },
        { type: 'StartAttempt', data: {}, metadata: now },
      ],
      context,
    );
    clock.advance(5_000); // the process stopped between recording the attempt and the call
    const wallet = new ScriptedWallet();
    await handleWalletRequest(dispatchContext(deps(wallet)), messageOf(request));
    expect(wallet.calls).toEqual([]);
    const state = await stateOf(request);
    expect(state).toMatchObject({ status: 'failed', inFlight: false });
    expect(state.cancel).toBeDefined();
    expect(state.lastFailure?.reason).toContain('not sent');
  });

  it('raced by a dispatcher that sent it in time ends once: the late one sends nothing, and the outcome is recorded once', async () => {
    const request = await bet('raced');
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const sender = new ScriptedWallet().then(async () => {
      await gate;
      return { kind: 'reply', statusCode: 'OK', balance: 99 };
    });
    const first = handleWalletRequest(dispatchContext(deps(sender)), messageOf(request));
    await eventually(() => expect(sender.calls).toHaveLength(1), 5_000, 5);
    // Another dispatcher takes the same message 5 s later (a rebalance overlap behind a paused one).
    const lateClock = new ManualClock(new Date(clock.now().getTime() + 5_000));
    const late = new ScriptedWallet();
    await handleWalletRequest(dispatchContext({ ...deps(late), clock: lateClock }), messageOf(request));
    release();
    await first;
    expect(late.calls).toEqual([]);
    const events = await types(request.transactionId);
    expect(events.filter((type) => type === 'WalletSucceeded' || type === 'WalletFailed')).toHaveLength(1);
    const state = await stateOf(request);
    // The sender's OK came after the late dispatcher recorded the time-out: the round is canceled, and the cancel reverts the bet.
    expect(state.status).toBe('failed');
    expect(state.cancel).toBeDefined();
  });
});

/** The dispatch use case on the embedded event store and bus, with a scripted operator wallet. */
import { describe, expect, it } from '@jest/globals';
import {
  bonusWebhookKey,
  bonusWebhookOf,
  Headers,
  parseStoredEvent,
  ReelstreamError,
  webhookLetterStream,
  Topics,
  walletTxStream,
  type WalletRequest,
  type WalletWinRequest,
} from '@reelstream/contracts';
import { OperatorDirectory } from '@reelstream/platform-config';
import type { Message } from '@reelstream/platform-ports';
import { eventually, recordStakeSource, recordWinSource } from '@reelstream/testing';
import {
  dispatchContext,
  findDeadLetteredWins,
  handleCancelDelivery,
  handleDelayedMessage,
  handleWalletRequest,
  NotDueYet,
  RetryTiers,
  UNCLASSIFIED_FAILURE_ATTEMPTS,
  walletSubscriptions,
  WalletTxRepository,
} from '../src/index.js';
import { ScriptedWallet } from './scripted-wallet.js';
import { dispatchRig } from './support/dispatch-rig.js';

const rig = dispatchRig('use-case', 9);
const { clock, ids, deps, messageOf, unsourcedWin, types } = rig;
/** A win as the game-server's outbox publishes it: its round's RoundSettled is stored first. */
const win = (operatorId = 'alpha', playerId = 'p1'): Promise<WalletWinRequest> =>
  recordWinSource(rig.store, unsourcedWin(operatorId, playerId));
/** A bet as the game-server publishes it: its round's RoundStarted is stored first. */
const bet = (): Promise<WalletRequest> => recordStakeSource(rig.store, rig.bet('alpha', 'p2'));
const failure = { kind: 'no_reply', cause: 'timeout', reason: 'no reply within 4000 ms' } as const;
/** The wallet.cancels message of the cancel that `request`'s record asks for (a request of alpha's player p2). */
async function cancelDeliveryOf(request: WalletRequest): Promise<Message> {
  const cancel = (await rig.store.readStream(walletTxStream(request.transactionId)))
    .map(parseStoredEvent)
    .find((event) => event.type === 'CancelRequested')?.data as { cancelTransactionId: number };
  const { transactionId: refTransactionId } = request;
  const { cancelTransactionId } = cancel;
  return messageOf(
    { refTransactionId, cancelTransactionId, operatorId: 'alpha', playerId: 'p2' },
    Topics.walletCancels,
  );
}

describe('two dispatchers on the same transaction (a rebalance overlap)', () => {
  it('agree on one record: the loser of an append reloads and goes on from what the winner wrote', async () => {
    const request = await win();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = new ScriptedWallet().then(async () => {
      await gate;
      return { kind: 'reply', statusCode: 'OK', balance: 102.5 };
    });
    const fast = new ScriptedWallet({ kind: 'reply', statusCode: 'OK', balance: 102.5 });
    const first = handleWalletRequest(dispatchContext(deps(slow)), messageOf(request));
    // The slow one is inside its wallet call (its attempt recorded) before the fast one starts.
    await eventually(() => expect(slow.calls).toHaveLength(1), 5_000, 5);
    await handleWalletRequest(dispatchContext(deps(fast)), messageOf(request));
    release();
    await first;
    const recorded = await types(request.transactionId);
    expect(recorded.filter((type) => type === 'WalletSucceeded')).toHaveLength(1);
    expect(recorded[0]).toBe('WalletRequested');
    expect(slow.calls.length + fast.calls.length).toBeGreaterThanOrEqual(2);
    expect(new Set([...slow.calls, ...fast.calls].map((body) => body.transactionId))).toEqual(
      new Set([request.transactionId]),
    );
  });
});

describe('cancel delivery', () => {
  /** Everything published on the delay topics from now on. */
  async function watchDelayTopics(): Promise<{ messages: Message[]; stop(): Promise<void> }> {
    const messages: Message[] = [];
    const consumer = await rig.bus.subscribe({
      groupId: `delay-watch-${ids.next()}`,
      topics: RetryTiers.map((tier) => tier.topic),
      fromOffset: 'latest',
      handler: async (message) => void messages.push(message),
    });
    await consumer.ready;
    return { messages, stop: () => consumer.stop() };
  }

  it('records each attempt; until the operator says OK it reschedules the cancel durably (not before the back-off) and returns, so its partition moves on', async () => {
    const request = await bet();
    const wallet = new ScriptedWallet().then(
      { kind: 'reply', statusCode: 'ERR_NOT_ENOUGH_MONEY', balance: 0.5 },
      failure,
      { kind: 'reply', statusCode: 'ERR_UNKNOWN', balance: 0 },
      { kind: 'reply', statusCode: 'OK', balance: 1.5 },
    );
    const context = dispatchContext(deps(wallet));
    await handleWalletRequest(context, messageOf(request));
    const delivery = await cancelDeliveryOf(request);
    const { cancelTransactionId: cancelId } = delivery.value as { cancelTransactionId: number };
    const delayed = await watchDelayTopics();

    await handleCancelDelivery(context, delivery);
    const firstDue = new Date(clock.now().getTime() + 1_000).toISOString();
    await handleCancelDelivery(context, { ...delivery, headers: { [Headers.retryCount]: '1' } });
    await handleCancelDelivery(context, delivery);
    await handleCancelDelivery(context, delivery);
    expect(wallet.calls.map((body) => body.command)).toEqual(['bet', 'cancel', 'cancel', 'cancel']);
    expect(
      wallet.calls
        .slice(1)
        .every(
          (body) =>
            body.command === 'cancel' &&
            body.transactionId === cancelId &&
            body.refTransactionId === request.transactionId,
        ),
    ).toBe(true);
    expect(await types(request.transactionId)).toEqual([
      'WalletRequested',
      'WalletAttempted',
      'WalletFailed',
      'CancelRequested',
      'WalletAttempted',
      'WalletFailed',
      'WalletAttempted',
      'WalletFailed',
      'WalletAttempted',
      'CancelSucceeded',
    ]);
    await eventually(() => expect(delayed.messages.length).toBeGreaterThanOrEqual(2), 5_000);
    await delayed.stop();
    expect(
      delayed.messages.map((message) => ({
        topic: message.topic,
        key: message.key,
        value: message.value,
        headers: message.headers,
      })),
    ).toEqual([
      {
        topic: 'wallet.retry.1s',
        key: 'k',
        value: delivery.value,
        headers: {
          [Headers.retryTopic]: Topics.walletCancels,
          [Headers.notBefore]: firstDue,
          [Headers.retryCount]: '1',
        },
      },
      {
        topic: 'wallet.retry.1s',
        key: 'k',
        value: delivery.value,
        headers: {
          [Headers.retryTopic]: Topics.walletCancels,
          [Headers.notBefore]: firstDue,
          [Headers.retryCount]: '2',
        },
      },
    ]);
  });

  it("an operator's circuit open: the cancel is rescheduled after the circuit's remaining time, not sent", async () => {
    const request = await bet();
    const wallet = new ScriptedWallet().then(failure, {
      kind: 'no_reply',
      cause: 'unavailable',
      reason: 'not sent: circuit open',
      retryAfterMs: 4_000,
    });
    const context = dispatchContext(deps(wallet));
    await handleWalletRequest(context, messageOf(request));
    const delayed = await watchDelayTopics();
    await handleCancelDelivery(context, await cancelDeliveryOf(request));
    await eventually(() => expect(delayed.messages.length).toBeGreaterThanOrEqual(1), 5_000);
    await delayed.stop();
    expect(delayed.messages.map((message) => [message.topic, message.headers[Headers.notBefore]])).toEqual([
      ['wallet.retry.5s', new Date(clock.now().getTime() + 5_000).toISOString()],
    ]);
  });

  it('an open circuit known before the call: the cancel waits on a delay topic, nothing sent and nothing recorded', async () => {
    const request = await bet();
    const context = dispatchContext(deps(new ScriptedWallet(failure)));
    await handleWalletRequest(context, messageOf(request));
    const before = await types(request.transactionId);
    const open = Object.assign(new ScriptedWallet(), {
      refusingForMs: (operatorId: string) => (operatorId === 'alpha' ? 4_000 : undefined),
    });
    const delayed = await watchDelayTopics();
    await handleCancelDelivery(dispatchContext(deps(open)), await cancelDeliveryOf(request));
    await eventually(() => expect(delayed.messages.length).toBeGreaterThanOrEqual(1), 5_000);
    await delayed.stop();
    expect(open.calls).toEqual([]);
    expect(await types(request.transactionId)).toEqual(before);
    expect(delayed.messages.map((message) => message.topic)).toEqual(['wallet.retry.5s']);
  });

  it('a cancel of an operator that is not configured (any more) waits durably on the longest delay topic, calling nobody', async () => {
    const request = await bet();
    await handleWalletRequest(dispatchContext(deps(new ScriptedWallet(failure))), messageOf(request));
    const wallet = new ScriptedWallet();
    const delayed = await watchDelayTopics();
    // The operator of the transaction's record was removed from this dispatcher's configuration.
    const unconfigured = { ...deps(wallet), operators: { get: () => undefined } };
    await handleCancelDelivery(dispatchContext(unconfigured), await cancelDeliveryOf(request));
    await eventually(() => expect(delayed.messages.length).toBeGreaterThanOrEqual(1), 5_000);
    await delayed.stop();
    expect(wallet.calls).toEqual([]);
    expect(
      delayed.messages.map((message) => [
        message.topic,
        message.headers[Headers.retryTopic],
        message.headers[Headers.retryCount],
      ]),
    ).toEqual([['wallet.retry.30s', 'wallet.cancels', '1']]);
  });

  describe('is never parked', () => {
    /** The use case's deps with every park and every cancel not delivered noted. */
    const watched = (wallet: ScriptedWallet) => {
      const parked: string[] = [];
      const notDelivered: { operatorId: string; reason: string }[] = [];
      const context = dispatchContext({
        ...deps(wallet),
        onParked: (message) => parked.push(message.reason),
        onCancelNotDelivered: (event) => notDelivered.push(event),
      });
      return { context, parked, notDelivered };
    };

    it('a message with fields missing or wrong delivers the cancel its transaction record holds', async () => {
      const request = await bet();
      await handleWalletRequest(dispatchContext(deps(new ScriptedWallet(failure))), messageOf(request));
      const recorded = (await cancelDeliveryOf(request)).value as { cancelTransactionId: number };
      const wallet = new ScriptedWallet();
      const { context, parked, notDelivered } = watched(wallet);
      await handleCancelDelivery(
        context,
        messageOf({ refTransactionId: request.transactionId, cancelTransactionId: 'x' }, Topics.walletCancels),
      );
      expect(parked).toEqual([]);
      expect(notDelivered).toEqual([]);
      expect(wallet.calls.map((body) => [body.command, body.transactionId])).toEqual([
        ['cancel', recorded.cancelTransactionId],
      ]);
      expect(await types(request.transactionId)).toContain('CancelSucceeded');
    });

    it('a message naming a transaction that owes no cancel (its bet stands) sends nothing, parks nothing, and is counted', async () => {
      const request = await bet();
      await handleWalletRequest(dispatchContext(deps(new ScriptedWallet())), messageOf(request));
      const before = await types(request.transactionId);
      const wallet = new ScriptedWallet();
      const { context, parked, notDelivered } = watched(wallet);
      await handleCancelDelivery(
        context,
        messageOf(
          {
            refTransactionId: request.transactionId,
            cancelTransactionId: ids.next(),
            operatorId: 'alpha',
            playerId: 'p2',
          },
          Topics.walletCancels,
        ),
      );
      expect(wallet.calls).toEqual([]);
      expect(parked).toEqual([]);
      expect(notDelivered).toEqual([{ operatorId: 'alpha', reason: 'no_cancel_requested' }]);
      expect(await types(request.transactionId)).toEqual(before);
    });

    it('a message that names no transaction sends nothing, parks nothing, and is counted', async () => {
      const wallet = new ScriptedWallet();
      const { context, parked, notDelivered } = watched(wallet);
      await handleCancelDelivery(context, messageOf({ operatorId: 'alpha', hello: 1 }, Topics.walletCancels));
      expect(wallet.calls).toEqual([]);
      expect(parked).toEqual([]);
      expect(notDelivered).toEqual([{ operatorId: 'alpha', reason: 'not_a_cancel' }]);
    });

    it('a cancel whose record this release cannot read waits on the longest delay topic, counted each round', async () => {
      const request = await bet();
      await handleWalletRequest(dispatchContext(deps(new ScriptedWallet(failure))), messageOf(request));
      const delivery = await cancelDeliveryOf(request);
      // A newer release appended an event this one does not know.
      await rig.store.append(walletTxStream(request.transactionId), [{ type: 'WalletTeleported', data: {} }], {
        expectedRevision: 'any',
      });
      const wallet = new ScriptedWallet();
      const { context, parked, notDelivered } = watched(wallet);
      const delayed = await watchDelayTopics();
      await handleCancelDelivery(context, delivery);
      await eventually(() => expect(delayed.messages.length).toBeGreaterThanOrEqual(1), 5_000);
      await delayed.stop();
      expect(wallet.calls).toEqual([]);
      expect(parked).toEqual([]);
      expect(notDelivered).toEqual([{ operatorId: 'alpha', reason: 'record_unreadable' }]);
      expect(delayed.messages.map((message) => [message.topic, message.headers[Headers.retryTopic]])).toEqual([
        ['wallet.retry.30s', 'wallet.cancels'],
      ]);
    });
  });

  it('the delay consumer holds a message until not-before, then puts it back on its topic with its retry count', async () => {
    const context = dispatchContext(deps(new ScriptedWallet()));
    const notBefore = new Date(clock.now().getTime() + 1_000).toISOString();
    const delayedMessage: Message = {
      ...messageOf({ refTransactionId: 1 }, 'wallet.retry.1s'),
      key: 'alpha:p9',
      headers: {
        [Headers.retryTopic]: Topics.walletCancels,
        [Headers.notBefore]: notBefore,
        [Headers.retryCount]: '3',
      },
    };
    const back: Message[] = [];
    const watcher = await rig.bus.subscribe({
      groupId: `cancels-watch-${ids.next()}`,
      topics: [Topics.walletCancels],
      fromOffset: 'latest',
      handler: async (message) => void back.push(message),
    });
    await watcher.ready;
    await expect(handleDelayedMessage(context, delayedMessage)).rejects.toBeInstanceOf(NotDueYet);
    clock.advance(1_000);
    await handleDelayedMessage(context, delayedMessage);
    await eventually(() => expect(back.length).toBeGreaterThanOrEqual(1), 5_000);
    await watcher.stop();
    expect(back.map((message) => ({ key: message.key, value: message.value, headers: message.headers }))).toEqual([
      { key: 'alpha:p9', value: { refTransactionId: 1 }, headers: { [Headers.retryCount]: '3' } },
    ]);
  });

  it("a win the operator's bulkhead refused is rescheduled without using up an attempt, and sent again with the same transactionId when due", async () => {
    const request = await win('beta', 'p7');
    const refusing = new ScriptedWallet({
      kind: 'no_reply',
      cause: 'unavailable',
      reason: 'not sent: circuit open',
      retryAfterMs: 3_000,
    });
    const delayed = await watchDelayTopics();
    const { requests } = walletSubscriptions(deps(refusing));
    const message = messageOf(request);
    await requests.handler(message, { attempt: 1, signal: new AbortController().signal });
    await eventually(() => expect(delayed.messages.length).toBeGreaterThanOrEqual(1), 5_000);
    await delayed.stop();
    expect(delayed.messages.map((m) => [m.topic, m.headers[Headers.retryTopic]])).toEqual([
      ['wallet.retry.5s', 'wallet.requests'],
    ]);
    const pending = (await new WalletTxRepository(rig.store).load(request.transactionId)).state;
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, inFlight: true });

    const ok = new ScriptedWallet({ kind: 'reply', statusCode: 'OK', balance: 12.5 });
    await walletSubscriptions(deps(ok)).requests.handler(message, { attempt: 1, signal: new AbortController().signal });
    expect(ok.calls.map((body) => body.transactionId)).toEqual([request.transactionId]);
    expect((await new WalletTxRepository(rig.store).load(request.transactionId)).state).toMatchObject({
      status: 'succeeded',
      attempts: 1,
    });
  });

  it('the cancel and request consumers never park and take several players of a partition at once; the delay consumer keeps its order', () => {
    const { requests, cancels, delayed } = walletSubscriptions(deps(new ScriptedWallet()));
    expect(requests).toMatchObject({
      groupId: 'wallet-dispatcher',
      topics: ['wallet.requests'],
      maxAttempts: Number.MAX_SAFE_INTEGER,
      keyConcurrency: 32,
    });
    expect(cancels).toMatchObject({
      groupId: 'wallet-dispatcher.cancels',
      topics: ['wallet.cancels'],
      maxAttempts: Number.MAX_SAFE_INTEGER,
      keyConcurrency: 32,
    });
    expect([1, 2, 3].map((attempt) => cancels.retryDelayMs?.(attempt))).toEqual([250, 500, 1_000]);
    expect(delayed).toMatchObject({
      groupId: 'wallet-dispatcher.delayed',
      topics: ['wallet.retry.1s', 'wallet.retry.5s', 'wallet.retry.30s'],
      maxAttempts: Number.MAX_SAFE_INTEGER,
    });
    expect(delayed.keyConcurrency).toBeUndefined();
  });
});

describe('findDeadLetteredWins', () => {
  it('lists the wins still parked, by operator and since when', async () => {
    const alpha = await win('alpha', 'dl1');
    const beta = await win('beta', 'dl2');
    const later = await win('alpha', 'dl3');
    const failing = new ScriptedWallet(failure);
    await handleWalletRequest(dispatchContext(deps(failing)), messageOf(alpha));
    await handleWalletRequest(dispatchContext(deps(failing)), messageOf(beta));
    clock.advance(60_000);
    const cut = clock.now();
    await handleWalletRequest(dispatchContext(deps(failing)), messageOf(later));
    const ofAlpha = await findDeadLetteredWins(rig.store, { operatorId: 'alpha' });
    expect(ofAlpha.map((letter) => letter.transactionId)).toEqual(
      expect.arrayContaining([alpha.transactionId, later.transactionId]),
    );
    expect(ofAlpha.map((letter) => letter.transactionId)).not.toContain(beta.transactionId);
    expect(
      (await findDeadLetteredWins(rig.store, { operatorId: 'alpha', since: cut })).map(
        (letter) => letter.transactionId,
      ),
    ).toEqual([later.transactionId]);

    // Re-driven (here: straight through the handler) and applied: no longer parked.
    const ok = new ScriptedWallet();
    await handleWalletRequest(
      dispatchContext(deps(ok)),
      messageOf({
        command: 'redrive',
        transactionId: later.transactionId,
        operatorId: 'alpha',
        playerId: 'dl3',
        requestedAt: clock.now().toISOString(),
      }),
    );
    expect(ok.calls.map((body) => body.transactionId)).toEqual([later.transactionId]);
    expect(
      (await findDeadLetteredWins(rig.store, { operatorId: 'alpha', since: cut })).map(
        (letter) => letter.transactionId,
      ),
    ).toEqual([]);
  });
});

describe('a record this code cannot read', () => {
  it('dead-letters the win with the reason instead of retrying it for ever or parking it on a topic, and calls nobody', async () => {
    const request = await win('alpha', 'unreadable');
    await rig.store.append(walletTxStream(request.transactionId), [{ type: 'WalletTeleported', data: {} }], {
      expectedRevision: 'no_stream',
    });
    const letters: Message[] = [];
    const watcher = await rig.bus.subscribe({
      groupId: 'unreadable-letters',
      topics: [Topics.walletDeadLetters],
      handler: async (message) =>
        void (
          (message.value as { transactionId: number }).transactionId === request.transactionId && letters.push(message)
        ),
    });
    await watcher.ready;
    const wallet = new ScriptedWallet();
    await handleWalletRequest(dispatchContext(deps(wallet)), messageOf(request));
    // Delivered again: still one dead letter in the record.
    await handleWalletRequest(dispatchContext(deps(wallet)), messageOf(request));
    await eventually(() => expect(letters).toHaveLength(2), 5_000);
    await watcher.stop();
    expect(wallet.calls).toEqual([]);
    const raw = await rig.store.readStream(walletTxStream(request.transactionId));
    expect(raw.map((event) => event.type)).toEqual(['WalletTeleported', 'WinDeadLettered']);
    const listed = (await findDeadLetteredWins(rig.store, { operatorId: 'alpha' })).filter(
      (letter) => letter.transactionId === request.transactionId,
    );
    expect(listed).toEqual([
      expect.objectContaining({
        reason: 'decision_refused',
        attempts: 0,
        request,
        lastError: expect.stringMatching(
          /cannot be handled: stream walletTx-\d+ holds a WalletTeleported event, which its category does not hold/,
        ),
      }),
    ]);
    expect(letters.map((message) => (message.value as { reason: string }).reason)).toEqual([
      'decision_refused',
      'decision_refused',
    ]);
  });
});

describe('a handler that keeps failing with an error nothing classified (a bug)', () => {
  /** A wallet port that throws what no adapter made: a TypeError, as a bug in the call would. */
  const buggy = () =>
    new ScriptedWallet().then(
      ...Array.from({ length: 20 }, () => async (): Promise<never> => {
        throw new TypeError("Cannot read properties of undefined (reading 'balance')");
      }),
    );
  const parkedBy = () => {
    const parked: { reason: string; attempts: number }[] = [];
    return { parked, onParked: (message: { reason: string; attempts: number }) => void parked.push(message) };
  };

  it('retries a bet nine times, then gives it up: failed for good with its cancel (D9), and parked with the reason', async () => {
    const request = await bet();
    const wallet = buggy();
    const { parked, onParked } = parkedBy();
    const context = dispatchContext({ ...deps(wallet), onParked });
    for (let attempt = 1; attempt < UNCLASSIFIED_FAILURE_ATTEMPTS; attempt++)
      await expect(handleWalletRequest(context, messageOf(request), undefined, attempt)).rejects.toThrow(TypeError);
    expect(parked).toEqual([]);
    expect((await types(request.transactionId)).slice(-1)).toEqual(['WalletAttempted']);

    await handleWalletRequest(context, messageOf(request), undefined, UNCLASSIFIED_FAILURE_ATTEMPTS);
    const recorded = (await rig.store.readStream(walletTxStream(request.transactionId))).map(parseStoredEvent);
    expect(recorded.slice(-2)).toEqual([
      expect.objectContaining({
        type: 'WalletFailed',
        data: expect.objectContaining({
          error: "abandoned: Cannot read properties of undefined (reading 'balance')",
          final: true,
        }),
      }),
      expect.objectContaining({
        type: 'CancelRequested',
        data: expect.objectContaining({ refTransactionId: request.transactionId }),
      }),
    ]);
    expect(parked).toEqual([
      expect.objectContaining({
        topic: Topics.walletRequests,
        deadLetterTopic: 'wallet.requests.dlq',
        reason: `transaction ${request.transactionId} cannot be handled: Cannot read properties of undefined (reading 'balance')`,
        attempts: UNCLASSIFIED_FAILURE_ATTEMPTS,
      }),
    ]);
    // Every call was the same bet; the cancel goes out through wallet.cancels as after a time-out.
    expect(new Set(wallet.calls.map((body) => `${body.command} ${body.transactionId}`))).toEqual(
      new Set([`bet ${request.transactionId}`]),
    );
    const cancel = new ScriptedWallet();
    await handleCancelDelivery(dispatchContext(deps(cancel)), await cancelDeliveryOf(request));
    expect(cancel.calls).toEqual([
      expect.objectContaining({ command: 'cancel', refTransactionId: request.transactionId }),
    ]);

    // Delivered again after it was given up: answered from the record, nothing sent, nothing parked.
    const after = new ScriptedWallet();
    await handleWalletRequest(dispatchContext({ ...deps(after), onParked }), messageOf(request));
    expect(after.calls).toEqual([]);
    expect(parked).toHaveLength(1);
  });

  it('retries a retriable failure for as long as it lasts: nothing is given up', async () => {
    const request = await bet();
    const unreachable = new ScriptedWallet().then(
      ...Array.from({ length: 3 }, () => async (): Promise<never> => {
        throw new ReelstreamError('SERVICE_UNAVAILABLE', 'the store is unreachable', { retriable: true });
      }),
    );
    const { parked, onParked } = parkedBy();
    const context = dispatchContext({ ...deps(unreachable), onParked });
    for (const attempt of [1, UNCLASSIFIED_FAILURE_ATTEMPTS, 1_000])
      await expect(handleWalletRequest(context, messageOf(request), undefined, attempt)).rejects.toThrow(
        'the store is unreachable',
      );
    expect(parked).toEqual([]);
    expect(await types(request.transactionId)).not.toContain('WalletFailed');
  });

  it('dead-letters a win on its tenth failure (reason decision_refused, the error as lastError), never parking it', async () => {
    const request = await win('alpha', 'buggy_win');
    const { parked, onParked } = parkedBy();
    const context = dispatchContext({ ...deps(buggy()), onParked });
    await expect(
      handleWalletRequest(context, messageOf(request), undefined, UNCLASSIFIED_FAILURE_ATTEMPTS - 1),
    ).rejects.toThrow(TypeError);
    await handleWalletRequest(context, messageOf(request), undefined, UNCLASSIFIED_FAILURE_ATTEMPTS);
    expect(parked).toEqual([]);
    const listed = (await findDeadLetteredWins(rig.store, { operatorId: 'alpha' })).filter(
      (letter) => letter.transactionId === request.transactionId,
    );
    expect(listed).toEqual([
      expect.objectContaining({
        reason: 'decision_refused',
        lastError: expect.stringMatching(/cannot be handled: Cannot read properties of undefined/),
      }),
    ]);
  });

  it('keeps a cancel whose handler fails ten times waiting on the longest delay topic, counted as handler_failed', async () => {
    const request = await bet();
    await handleWalletRequest(dispatchContext(deps(new ScriptedWallet(failure))), messageOf(request));
    const delivery = await cancelDeliveryOf(request);
    const notDelivered: { operatorId: string; reason: string }[] = [];
    const { parked, onParked } = parkedBy();
    const context = dispatchContext({
      ...deps(buggy()),
      onParked,
      onCancelNotDelivered: (event) => notDelivered.push(event),
    });
    await expect(handleCancelDelivery(context, delivery, undefined, 1)).rejects.toThrow(TypeError);
    expect(notDelivered).toEqual([]);
    const delayed: Message[] = [];
    const watcher = await rig.bus.subscribe({
      groupId: `buggy-cancel-watch-${ids.next()}`,
      topics: RetryTiers.map((tier) => tier.topic),
      fromOffset: 'latest',
      handler: async (message) =>
        void (
          (message.value as { refTransactionId?: number }).refTransactionId === request.transactionId &&
          delayed.push(message)
        ),
    });
    await watcher.ready;
    await handleCancelDelivery(context, delivery, undefined, UNCLASSIFIED_FAILURE_ATTEMPTS);
    await eventually(() => expect(delayed).toHaveLength(1), 5_000);
    await watcher.stop();
    expect(delayed[0]?.topic).toBe('wallet.retry.30s');
    expect(notDelivered).toEqual([{ operatorId: 'alpha', reason: 'handler_failed' }]);
    expect(parked).toEqual([]);
    expect(await types(request.transactionId)).not.toContain('CancelSucceeded');
  });

  it('gives a bonus webhook up on the tenth failure of its handler: dead-lettered in the event log, then parked', async () => {
    const alpha = deps(new ScriptedWallet()).operators.get('alpha');
    if (!alpha) throw new Error('the rig configures alpha');
    const operators = new OperatorDirectory([{ ...alpha, webhookUrl: 'http://127.0.0.1:9/hooks' }]);
    const sender = {
      post: async (): Promise<never> => {
        throw new TypeError("Cannot read properties of undefined (reading 'status')");
      },
    };
    const { parked, onParked } = parkedBy();
    const { webhooks } = walletSubscriptions(
      { ...deps(new ScriptedWallet()), operators, onParked },
      { webhooks: sender },
    );
    const value = bonusWebhookOf(
      {
        type: 'BonusCallCanceled',
        data: { issueId: 7, spinsForfeited: 1, totalWinMinor: 0, canceledAt: '2026-05-01T10:00:00.000Z' },
      },
      {
        eventId: '00000000-0000-4000-8000-000000000007',
        revision: 0,
        operatorId: 'alpha',
        playerId: 'p1',
        occurredAt: '2026-05-01T10:00:00.000Z',
        currency: 'EUR',
      },
    );
    if (!webhooks || !value) throw new Error('a webhook sender and a webhook');
    const message = {
      ...messageOf(value, Topics.bonusWebhooks),
      key: bonusWebhookKey({ operatorId: 'alpha', bonusId: 7 }),
    };
    const signal = new AbortController().signal;
    await expect(webhooks.handler(message, { attempt: UNCLASSIFIED_FAILURE_ATTEMPTS - 1, signal })).rejects.toThrow(
      TypeError,
    );
    expect(parked).toEqual([]);
    await webhooks.handler(message, { attempt: UNCLASSIFIED_FAILURE_ATTEMPTS, signal });
    const letter = await rig.store.readStream(webhookLetterStream('alpha', value.webhook.eventId));
    expect(letter.map((event) => [event.type, event.data])).toEqual([
      [
        'WebhookDeadLettered',
        expect.objectContaining({
          attempts: 1,
          lastError: "not handled: Cannot read properties of undefined (reading 'status')",
        }),
      ],
    ]);
    expect(parked).toEqual([
      expect.objectContaining({
        topic: Topics.bonusWebhooks,
        reason: "not handled: Cannot read properties of undefined (reading 'status') (after 1 attempts)",
      }),
    ]);
  });
});

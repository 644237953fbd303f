/**
 * The delay consumer on the embedded bus and event store: a message it cannot put back on its topic
 * ends — given up, recorded as its topic's handler records it — instead of holding its delay
 * partition for ever. The fault is the one part not real: a bus that refuses to publish on the
 * target topic, as a broker refuses a record it will never take (too large, not authorised).
 */
import { describe, expect, it } from '@jest/globals';
import {
  Headers,
  parseStoredEvent,
  ReelstreamError,
  Topics,
  walletTxStream,
  type WalletRequest,
} from '@reelstream/contracts';
import {
  isConsumerLagSource,
  type Message,
  type MessageBus,
  type ParkedMessage,
  type SubscribeOptions,
} from '@reelstream/platform-ports';
import { eventually, recordStakeSource, recordWinSource } from '@reelstream/testing';
import {
  dispatchContext,
  handleWalletRequest,
  UNCLASSIFIED_FAILURE_ATTEMPTS,
  walletSubscriptions,
  type DispatchLog,
} from '../src/index.js';
import { ScriptedWallet } from './scripted-wallet.js';
import { dispatchRig } from './support/dispatch-rig.js';

const rig = dispatchRig('delayed-give-up', 11);
const { clock, deps } = rig;
const DELAYED_GROUP = 'wallet-dispatcher.delayed';

/** The rig's bus, but a publish on `refused` fails with `error` every time. */
function refusing(bus: MessageBus, refused: string, error: () => Error): MessageBus {
  return {
    publish: (topic, messages) => (topic === refused ? Promise.reject(error()) : bus.publish(topic, messages)),
    subscribe: (options) => bus.subscribe(options),
    request: (topic, message, options) => bus.request(topic, message, options),
    close: () => bus.close(),
  };
}

const tooLarge = () =>
  new ReelstreamError('SERVICE_UNAVAILABLE', 'Kafka: The request included a message larger than the max message size', {
    retriable: false,
  });

/** The log lines of the delay consumer, each with its message and fields. */
function recordingLog(): { log: DispatchLog; lines: { msg: string; fields: Record<string, unknown> }[] } {
  const lines: { msg: string; fields: Record<string, unknown> }[] = [];
  const line = (msg: string, fields: Record<string, unknown> = {}) => void lines.push({ msg, fields });
  return { lines, log: { debug: line, info: line, warn: line, error: line } };
}

/** Runs the dispatcher's delay consumer on the rig's bus until `done`, then stops it. */
async function runDelayConsumer(options: SubscribeOptions, done: () => Promise<void>): Promise<void> {
  const consumer = await rig.bus.subscribe(options);
  try {
    await consumer.ready;
    await done();
  } finally {
    await consumer.stop();
  }
}

async function delayedLag(topic: string): Promise<number> {
  const bus = rig.bus;
  if (!isConsumerLagSource(bus)) throw new Error('the embedded bus reports its lag');
  return (await bus.consumerLag(DELAYED_GROUP, [topic])).reduce((sum, partition) => sum + partition.lag, 0);
}

async function eventsOf(transactionId: number) {
  return (await rig.store.readStream(walletTxStream(transactionId))).map(parseStoredEvent);
}

describe('the delay consumer gives up, recorded, a message it cannot put back on its topic', () => {
  it('a win the wallet.requests topic refuses for good is dead-lettered at its first failure, and its delay partition moves on', async () => {
    // A win the operator's bulkhead did not send: its attempt in flight, rescheduled on wallet.retry.5s.
    const win = await recordWinSource(rig.store, rig.unsourcedWin('alpha', 'p_delayed'));
    const bulkheadRefused = new ScriptedWallet({
      kind: 'no_reply',
      cause: 'unavailable',
      reason: 'not sent: circuit open',
      retryAfterMs: 3_000,
    });
    await walletSubscriptions(deps(bulkheadRefused)).requests.handler(rig.messageOf(win), {
      attempt: 1,
      signal: new AbortController().signal,
    });
    expect(await delayedLag(Topics.walletRetry5s)).toBe(1);
    clock.advance(5_000);

    const { log, lines } = recordingLog();
    const parked: ParkedMessage[] = [];
    const dispatch = {
      ...deps(new ScriptedWallet(), log),
      bus: refusing(rig.bus, Topics.walletRequests, tooLarge),
      onParked: (message: ParkedMessage) => void parked.push(message),
    };
    await runDelayConsumer(walletSubscriptions(dispatch).delayed, () =>
      eventually(async () => expect(await delayedLag(Topics.walletRetry5s)).toBe(0), 10_000),
    );

    const recorded = await eventsOf(win.transactionId);
    expect(recorded.map((event) => event.type)).toEqual(['WalletRequested', 'WalletAttempted', 'WinDeadLettered']);
    expect(recorded.at(-1)?.data).toMatchObject({
      reason: 'decision_refused',
      lastError: `transaction ${win.transactionId} cannot be handled: Kafka: The request included a message larger than the max message size`,
    });
    // Given up on its first failure (not retriable), logged once, never parked: a win ends as a dead letter.
    expect(lines.filter((line) => line.msg === 'delayed message given up').map((line) => line.fields)).toEqual([
      expect.objectContaining({ topic: Topics.walletRetry5s, target: Topics.walletRequests, attempts: 1 }),
    ]);
    expect(lines.filter((line) => line.msg === 'delayed message not handled; retried')).toEqual([]);
    expect(parked).toEqual([]);
  });

  it('a cancel whose put-back keeps failing with an error nothing classified waits on the longest delay topic after ten attempts, counted', async () => {
    const bet: WalletRequest = await recordStakeSource(rig.store, rig.bet('alpha', 'p_cancel'));
    const timeout = { kind: 'no_reply', cause: 'timeout', reason: 'no reply within 4000 ms' } as const;
    await handleWalletRequest(dispatchContext(deps(new ScriptedWallet(timeout))), rig.messageOf(bet));
    const cancel = (await eventsOf(bet.transactionId)).find((event) => event.type === 'CancelRequested')?.data as {
      cancelTransactionId: number;
    };
    const notBefore = clock.now().toISOString();
    await rig.bus.publish(Topics.walletRetry1s, {
      key: 'alpha:p_cancel',
      value: {
        refTransactionId: bet.transactionId,
        cancelTransactionId: cancel.cancelTransactionId,
        operatorId: 'alpha',
        playerId: 'p_cancel',
      },
      headers: {
        [Headers.retryTopic]: Topics.walletCancels,
        [Headers.notBefore]: notBefore,
        [Headers.retryCount]: '1',
      },
    });

    const { log, lines } = recordingLog();
    const notDelivered: { operatorId: string; reason: string }[] = [];
    const bug = () => new TypeError("Cannot read properties of undefined (reading 'headers')");
    const dispatch = {
      ...deps(new ScriptedWallet(), log),
      bus: refusing(rig.bus, Topics.walletCancels, bug),
      onCancelNotDelivered: (event: { operatorId: string; reason: string }) => void notDelivered.push(event),
    };
    const waiting: Message[] = [];
    const watcher = await rig.bus.subscribe({
      groupId: 'watch-longest-tier',
      topics: [Topics.walletRetry30s],
      fromOffset: 'latest',
      handler: async (message) => void waiting.push(message),
    });
    await watcher.ready;
    await runDelayConsumer(walletSubscriptions(dispatch).delayed, () =>
      eventually(async () => expect(await delayedLag(Topics.walletRetry1s)).toBe(0), 10_000),
    );
    await eventually(() => expect(waiting).toHaveLength(1), 5_000);
    await watcher.stop();

    // Nine retried failures, then the tenth gives it up: the cancel is never dropped, it waits on wallet.retry.30s.
    const retried = lines.filter((line) => line.msg === 'delayed message not handled; retried');
    expect(retried.map((line) => line.fields['attempt'])).toEqual(
      Array.from({ length: UNCLASSIFIED_FAILURE_ATTEMPTS - 1 }, (_, index) => index + 1),
    );
    expect(lines.filter((line) => line.msg === 'delayed message given up').map((line) => line.fields)).toEqual([
      expect.objectContaining({ target: Topics.walletCancels, attempts: UNCLASSIFIED_FAILURE_ATTEMPTS }),
    ]);
    expect(notDelivered).toEqual([{ operatorId: 'alpha', reason: 'handler_failed' }]);
    expect(
      waiting.map((message) => ({
        value: message.value,
        retryTopic: message.headers[Headers.retryTopic],
        retryCount: message.headers[Headers.retryCount],
      })),
    ).toEqual([
      {
        value: expect.objectContaining({ refTransactionId: bet.transactionId }),
        retryTopic: Topics.walletCancels,
        retryCount: '2',
      },
    ]);
    // The record still owes its cancel: nothing was sent, nothing rewritten.
    expect((await eventsOf(bet.transactionId)).map((event) => event.type)).not.toContain('CancelSucceeded');
  });

  it('a delayed message without its retry headers is parked, counted under the delay consumer group', async () => {
    // The cancel the test before left waiting on wallet.retry.30s is due by now and goes back to wallet.cancels.
    clock.advance(30_000);
    await rig.bus.publish(Topics.walletRetry30s, { key: 'alpha:p_lost', value: { refTransactionId: 1 }, headers: {} });
    const parked: ParkedMessage[] = [];
    const dispatch = { ...deps(new ScriptedWallet()), onParked: (message: ParkedMessage) => void parked.push(message) };
    await runDelayConsumer(walletSubscriptions(dispatch).delayed, () =>
      eventually(() => expect(parked).toHaveLength(1), 10_000),
    );
    expect(parked).toEqual([
      expect.objectContaining({
        topic: Topics.walletRetry30s,
        deadLetterTopic: 'wallet.retry.30s.dlq',
        groupId: DELAYED_GROUP,
      }),
    ]);
  });
});

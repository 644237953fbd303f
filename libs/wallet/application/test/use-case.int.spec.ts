/** The dispatch use case on the embedded event store and bus, with a scripted operator wallet. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openEventStore, openMessageBus } from '@reelstream/backends';
import { OperatorDirectory } from '@reelstream/config';
import { parseOperatorsConfig, parseStoredEvent, Topics, walletTxStream, type WalletRequest, type WalletWinRequest } from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/ids';
import { ManualClock, type EventStore, type Message, type MessageBus } from '@reelstream/ports';
import { eventually, recordWinSource } from '@reelstream/testing';
import { CancelNotAcknowledgedError, dispatchContext, findDeadLetteredWins, handleCancelDelivery, handleWalletRequest, silentLog, walletSubscriptions, type WalletDispatchDeps } from '../src/index.js';
import { ScriptedWallet } from './scripted-wallet.js';

let dir: string;
let store: EventStore;
let bus: MessageBus;
const clock = new ManualClock('2026-05-01T10:00:00.000Z');
const ids = new TimeOrderedIdGenerator(9);
const operators = new OperatorDirectory(
  parseOperatorsConfig([
    { id: 'alpha', name: 'Alpha', apiToken: 'alpha-api-token-0123456789', callbackUrl: 'http://alpha.example/wallet', signingSecret: 'alpha-secret-0123456789', currency: 'EUR' },
    { id: 'beta', name: 'Beta', apiToken: 'beta-api-token-0123456789', callbackUrl: 'http://beta.example/wallet', signingSecret: 'beta-secret-0123456789', currency: 'EUR' },
  ]),
);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wallet-application-'));
  ({ store } = await openEventStore(`sqlite:${join(dir, 'r.db')}`));
  bus = await openMessageBus(`sqlite:${join(dir, 'r.db')}`, { instanceId: 'use-case' });
});
afterAll(async () => {
  await bus?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const deps = (wallet: ScriptedWallet): WalletDispatchDeps => ({ store, bus, clock, ids, wallet, operators, log: silentLog, sleep: async () => undefined });
let offset = 0;
const messageOf = (value: unknown, topic: string = Topics.walletRequests): Message => ({ topic, partition: 0, offset: String(++offset), key: 'k', value, headers: {}, timestamp: clock.now().toISOString() });
const unsourcedWin = (operatorId = 'alpha', playerId = 'p1'): WalletWinRequest => ({ command: 'win', transactionId: ids.next(), operatorId, playerId, roundId: ids.next(), providerId: 1, gameId: 2, currency: 'EUR', bonusId: 0, requestedAt: clock.now().toISOString(), amountMinor: 250, isRoundFinished: true });
/** A win as the game-server's outbox publishes it: its round's RoundSettled is stored first. */
const win = (operatorId = 'alpha', playerId = 'p1'): Promise<WalletWinRequest> => recordWinSource(store, unsourcedWin(operatorId, playerId));
const bet = (): WalletRequest => ({ command: 'bet', transactionId: ids.next(), operatorId: 'alpha', playerId: 'p2', roundId: ids.next(), providerId: 1, gameId: 2, currency: 'EUR', bonusId: 0, requestedAt: clock.now().toISOString(), amountMinor: 100, isBonusBusy: false });
const types = async (transactionId: number) => (await store.readStream(walletTxStream(transactionId))).map((event) => parseStoredEvent(event).type);
const failure = { kind: 'no_reply', cause: 'timeout', reason: 'no reply within 4000 ms' } as const;

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
    expect(new Set([...slow.calls, ...fast.calls].map((body) => body.transactionId))).toEqual(new Set([request.transactionId]));
  });
});

describe('cancel delivery', () => {
  it('records each attempt and throws until the operator says OK, then does nothing more', async () => {
    const request = bet();
    const wallet = new ScriptedWallet().then({ kind: 'reply', statusCode: 'ERR_NOT_ENOUGH_MONEY', balance: 0.5 }, failure, { kind: 'reply', statusCode: 'ERR_UNKNOWN', balance: 0 }, { kind: 'reply', statusCode: 'OK', balance: 1.5 });
    const context = dispatchContext(deps(wallet));
    await handleWalletRequest(context, messageOf(request));
    const events = (await store.readStream(walletTxStream(request.transactionId))).map(parseStoredEvent);
    const cancelId = (events.find((event) => event.type === 'CancelRequested')?.data as { cancelTransactionId: number }).cancelTransactionId;
    const delivery = messageOf({ refTransactionId: request.transactionId, cancelTransactionId: cancelId, operatorId: 'alpha', playerId: 'p2' }, Topics.walletCancels);

    await expect(handleCancelDelivery(context, delivery)).rejects.toBeInstanceOf(CancelNotAcknowledgedError);
    await expect(handleCancelDelivery(context, delivery)).rejects.toThrow(/attempt 2: ERR_UNKNOWN/);
    await handleCancelDelivery(context, delivery);
    await handleCancelDelivery(context, delivery);
    expect(wallet.calls.map((body) => body.command)).toEqual(['bet', 'cancel', 'cancel', 'cancel']);
    expect(wallet.calls.slice(1).every((body) => body.command === 'cancel' && body.transactionId === cancelId && body.refTransactionId === request.transactionId)).toBe(true);
    expect(await types(request.transactionId)).toEqual(['WalletRequested', 'WalletAttempted', 'WalletFailed', 'CancelRequested', 'WalletAttempted', 'WalletFailed', 'WalletAttempted', 'WalletFailed', 'WalletAttempted', 'CancelSucceeded']);
  });

  it('the cancel consumer never parks and backs off; the request consumer never parks', () => {
    const { requests, cancels } = walletSubscriptions(deps(new ScriptedWallet()));
    expect(requests).toMatchObject({ groupId: 'wallet-dispatcher', topics: ['wallet.requests'], maxAttempts: Number.MAX_SAFE_INTEGER });
    expect(cancels).toMatchObject({ groupId: 'wallet-dispatcher.cancels', topics: ['wallet.cancels'], maxAttempts: Number.MAX_SAFE_INTEGER });
    expect([1, 2, 3].map((attempt) => cancels.retryDelayMs?.(attempt))).toEqual([250, 500, 1_000]);
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
    const ofAlpha = await findDeadLetteredWins(store, { operatorId: 'alpha' });
    expect(ofAlpha.map((letter) => letter.transactionId)).toEqual(expect.arrayContaining([alpha.transactionId, later.transactionId]));
    expect(ofAlpha.map((letter) => letter.transactionId)).not.toContain(beta.transactionId);
    expect((await findDeadLetteredWins(store, { operatorId: 'alpha', since: cut })).map((letter) => letter.transactionId)).toEqual([later.transactionId]);

    // Re-driven (here: straight through the handler) and applied: no longer parked.
    const ok = new ScriptedWallet();
    await handleWalletRequest(dispatchContext(deps(ok)), messageOf({ command: 'redrive', transactionId: later.transactionId, operatorId: 'alpha', playerId: 'dl3', requestedAt: clock.now().toISOString() }));
    expect(ok.calls.map((body) => body.transactionId)).toEqual([later.transactionId]);
    expect((await findDeadLetteredWins(store, { operatorId: 'alpha', since: cut })).map((letter) => letter.transactionId)).toEqual([]);
  });
});

describe('a record this code cannot read', () => {
  it('dead-letters the win with the reason instead of retrying it for ever or parking it on a topic, and calls nobody', async () => {
    const request = await win('alpha', 'unreadable');
    await store.append(walletTxStream(request.transactionId), [{ type: 'WalletTeleported', data: {} }], { expectedRevision: 'no_stream' });
    const letters: Message[] = [];
    const watcher = await bus.subscribe({ groupId: 'unreadable-letters', topics: [Topics.walletDeadLetters], handler: async (message) => void ((message.value as { transactionId: number }).transactionId === request.transactionId && letters.push(message)) });
    await watcher.ready;
    const wallet = new ScriptedWallet();
    await handleWalletRequest(dispatchContext(deps(wallet)), messageOf(request));
    // Delivered again: still one dead letter in the record.
    await handleWalletRequest(dispatchContext(deps(wallet)), messageOf(request));
    await eventually(() => expect(letters).toHaveLength(2), 5_000);
    await watcher.stop();
    expect(wallet.calls).toEqual([]);
    const raw = await store.readStream(walletTxStream(request.transactionId));
    expect(raw.map((event) => event.type)).toEqual(['WalletTeleported', 'WinDeadLettered']);
    const listed = (await findDeadLetteredWins(store, { operatorId: 'alpha' })).filter((letter) => letter.transactionId === request.transactionId);
    expect(listed).toEqual([expect.objectContaining({ reason: 'decision_refused', attempts: 0, request, lastError: expect.stringMatching(/cannot be handled: unknown event type "WalletTeleported"/) })]);
    expect(letters.map((message) => (message.value as { reason: string }).reason)).toEqual(['decision_refused', 'decision_refused']);
  });
});

/**
 * Win admission and delivery on the embedded store and bus, with a scripted operator wallet: a win is
 * sent only when it matches the event it comes from, and a win that is not delivered ends as a
 * dead-letter event that the re-drive lists — never on a `.dlq` topic nobody reads.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import {
  bonusCallRegistered,
  eventToAppend,
  freeSpinSettled,
  parseStoredEvent,
  playerBonusStream,
  Topics,
  walletTxStream,
  type WalletWinRequest,
} from '@reelstream/contracts';
import { isConsumerLagSource, type Message, type ParkedMessage } from '@reelstream/platform-ports';
import { eventually, recordWinSource } from '@reelstream/testing';
import {
  dispatchContext,
  findDeadLetteredWins,
  handleWalletRequest,
  walletSubscriptions,
  WinSourceChecker,
  type DispatchLog,
} from '../src/index.js';
import { ScriptedWallet } from './scripted-wallet.js';
import { dispatchRig } from './support/dispatch-rig.js';

const rig = dispatchRig('admission', 11, ['alpha']);
const { clock, ids, messageOf, types } = rig;
const unsourced = rig.unsourcedWin;

type Entry = { level: string; msg: string; fields: Record<string, unknown> };
const recordingLog = (entries: Entry[]): DispatchLog => ({
  debug: (msg, fields = {}) => void entries.push({ level: 'debug', msg, fields }),
  info: (msg, fields = {}) => void entries.push({ level: 'info', msg, fields }),
  warn: (msg, fields = {}) => void entries.push({ level: 'warn', msg, fields }),
  error: (msg, fields = {}) => void entries.push({ level: 'error', msg, fields }),
});
const deps = (wallet: ScriptedWallet, log: DispatchLog) => rig.deps(wallet, log);

describe('a win is sent only when it matches its source event', () => {
  it('a win naming no source is refused, recorded, logged at error and not sent; delivered again it stays refused, recorded once', async () => {
    const forged = unsourced('alpha', 'forged');
    const wallet = new ScriptedWallet();
    const entries: Entry[] = [];
    await handleWalletRequest(dispatchContext(deps(wallet, recordingLog(entries))), messageOf(forged));
    await handleWalletRequest(dispatchContext(deps(wallet, recordingLog(entries))), messageOf(forged));
    expect(wallet.calls).toEqual([]);
    expect(await types(forged.transactionId)).toEqual(['WinRefused']);
    const [refusal] = (await rig.store.readStream(walletTxStream(forged.transactionId))).map(parseStoredEvent);
    expect(refusal?.data).toMatchObject({ request: forged, reason: 'no_source' });
    expect(
      entries
        .filter((entry) => entry.level === 'error')
        .map((entry) => [entry.fields['transactionId'], entry.fields['reason']]),
    ).toEqual([
      [forged.transactionId, 'no_source'],
      [forged.transactionId, 'no_source'],
    ]);
    // A refused win is not a dead letter: re-drive must never send it.
    expect((await findDeadLetteredWins(rig.store)).map((letter) => letter.transactionId)).not.toContain(
      forged.transactionId,
    );
  });

  it('a win whose amount (or player) differs from its RoundSettled is refused as a mismatch; the genuine one is then sent', async () => {
    const genuine = await recordWinSource(rig.store, unsourced('alpha', 'p2'));
    const inflated = { ...genuine, amountMinor: genuine.amountMinor * 100 };
    const elsewhere = { ...genuine, playerId: 'p3' };
    const wallet = new ScriptedWallet();
    const entries: Entry[] = [];
    const context = dispatchContext(deps(wallet, recordingLog(entries)));
    await handleWalletRequest(context, messageOf(inflated));
    await handleWalletRequest(context, messageOf(elsewhere));
    expect(wallet.calls).toEqual([]);
    const refusals = (await rig.store.readStream(walletTxStream(genuine.transactionId)))
      .map(parseStoredEvent)
      .map((event) => event.data as { reason: string; detail: string });
    expect(refusals.map((refusal) => refusal.reason)).toEqual(['source_mismatch', 'source_mismatch']);
    expect(refusals[0]?.detail).toMatch(/amountMinor 25000 \(source: 250\)/);
    expect(refusals[1]?.detail).toMatch(/playerId p3 \(source: p2\)/);
    expect(entries.filter((entry) => entry.level === 'error')).toHaveLength(2);

    await handleWalletRequest(context, messageOf(genuine));
    expect(wallet.calls.map((body) => [body.transactionId, body.command])).toEqual([[genuine.transactionId, 'win']]);
    expect(await types(genuine.transactionId)).toEqual([
      'WinRefused',
      'WinRefused',
      'WalletRequested',
      'WalletAttempted',
      'WalletSucceeded',
    ]);
  });

  it('a forgery of a genuine win’s fields, published first without a source, does not block the genuine win', async () => {
    const genuine = await recordWinSource(rig.store, unsourced('alpha', 'p6'));
    const { source: _source, ...forged } = genuine;
    const wallet = new ScriptedWallet();
    const context = dispatchContext(deps(wallet, recordingLog([])));
    await handleWalletRequest(context, messageOf(forged));
    expect(wallet.calls).toEqual([]);
    await handleWalletRequest(context, messageOf(genuine));
    expect(wallet.calls.map((body) => body.transactionId)).toEqual([genuine.transactionId]);
    expect(await types(genuine.transactionId)).toEqual([
      'WinRefused',
      'WalletRequested',
      'WalletAttempted',
      'WalletSucceeded',
    ]);
  });

  it('checks a free spin win against FreeSpinSettled and its bonus call’s currency', async () => {
    const stream = playerBonusStream('alpha', 'fs1');
    const issueId = ids.next();
    const transactionId = ids.next();
    const roundId = ids.next();
    const at = clock.now().toISOString();
    const context = { correlationId: 'c', causationId: 'c', operatorId: 'alpha', occurredAt: at };
    const registered = bonusCallRegistered.parse({
      type: 'BonusCallRegistered',
      data: {
        issueId,
        platformId: 'pf-1',
        operatorId: 'alpha',
        playerId: 'fs1',
        providerId: 1,
        gameIds: [2],
        bonusType: 1,
        currency: 'USD',
        callAmountMinor: 5000,
        spinAmount: 5,
        baseBetAmountMinor: 20,
        expireAt: '2026-06-30T14:59:59.000Z',
        registeredAt: at,
      },
    });
    const spin = freeSpinSettled.parse({
      type: 'FreeSpinSettled',
      data: {
        issueId,
        roundId,
        gameId: 2,
        spinNumber: 1,
        rawWinMinor: 40,
        winMinor: 40,
        totalWinMinor: 40,
        spinsLeft: 4,
        settledAt: at,
        transactionId,
      },
    });
    const appended = await rig.store.append(
      stream,
      [eventToAppend(registered, context), eventToAppend(spin, context)],
      {
        expectedRevision: 'no_stream',
      },
    );
    const [stored] = await rig.store.readStream(stream, { fromRevision: appended.nextExpectedRevision, maxCount: 1 });
    const win: WalletWinRequest = {
      command: 'win',
      transactionId,
      operatorId: 'alpha',
      playerId: 'fs1',
      roundId,
      providerId: 1,
      gameId: 2,
      currency: 'USD',
      bonusId: issueId,
      requestedAt: at,
      amountMinor: 40,
      isRoundFinished: true,
      source: { stream, revision: appended.nextExpectedRevision, eventId: stored?.eventId ?? '' },
    };
    const checker = new WinSourceChecker(rig.store);
    expect(await checker.check(win)).toEqual({ ok: true });
    expect(await checker.check({ ...win, currency: 'EUR' })).toMatchObject({
      ok: false,
      reason: 'source_mismatch',
      detail: expect.stringMatching(/currency EUR \(source: USD\)/),
    });
    expect(await checker.check({ ...win, bonusId: issueId + 1 })).toMatchObject({
      ok: false,
      reason: 'source_mismatch',
    });
    expect(await checker.check({ ...win, operatorId: 'beta' })).toMatchObject({
      ok: false,
      reason: 'source_mismatch',
      detail: expect.stringMatching(/operatorId beta/),
    });
    expect(
      await checker.check({ ...win, source: { stream, revision: 0, eventId: stored?.eventId ?? '' } }),
    ).toMatchObject({ ok: false, reason: 'source_not_found' });
    expect(
      await checker.check({ ...win, source: { stream: walletTxStream(transactionId), revision: 0, eventId: 'x' } }),
    ).toMatchObject({ ok: false, reason: 'source_not_found' });
  });
});

describe('every win that is not delivered ends as a dead-letter event', () => {
  const dlqTopic = `${Topics.walletRequests}.dlq`;
  const parkedOnDlq: Message[] = [];
  /** Resolves once the watcher has read everything parked so far: what `parkedOnDlq` lacks then was never parked. */
  const watcherCaughtUp = async () => {
    const { bus } = rig;
    if (!isConsumerLagSource(bus)) throw new Error('the rig bus cannot tell a consumer group its lag');
    await eventually(async () =>
      expect((await bus.consumerLag('admission-dlq', [dlqTopic])).filter((partition) => partition.lag > 0)).toEqual([]),
    );
  };
  beforeAll(async () => {
    const watcher = await rig.bus.subscribe({
      groupId: 'admission-dlq',
      topics: [dlqTopic],
      handler: async (message) => void parkedOnDlq.push(message),
    });
    await watcher.ready;
  });

  it('a win of an operator not configured here: WalletRequested + WinDeadLettered(operator_not_configured), listed, not parked on a topic', async () => {
    const orphan = await recordWinSource(rig.store, unsourced('gamma', 'p4'));
    const wallet = new ScriptedWallet();
    const entries: Entry[] = [];
    await handleWalletRequest(dispatchContext(deps(wallet, recordingLog(entries))), messageOf(orphan));
    await handleWalletRequest(dispatchContext(deps(wallet, recordingLog(entries))), messageOf(orphan));
    expect(wallet.calls).toEqual([]);
    expect(await types(orphan.transactionId)).toEqual(['WalletRequested', 'WinDeadLettered']);
    expect(
      (await findDeadLetteredWins(rig.store, { operatorId: 'gamma' })).map((letter) => [
        letter.transactionId,
        letter.reason,
        letter.attempts,
      ]),
    ).toEqual([[orphan.transactionId, 'operator_not_configured', 0]]);
    expect(
      entries.some((entry) => entry.level === 'error' && entry.fields['reason'] === 'operator_not_configured'),
    ).toBe(true);

    // A re-drive while the operator is still missing fails and leaves it dead-lettered.
    await handleWalletRequest(
      dispatchContext(deps(wallet, recordingLog(entries))),
      messageOf({
        command: 'redrive',
        transactionId: orphan.transactionId,
        operatorId: 'gamma',
        playerId: 'p4',
        requestedAt: clock.now().toISOString(),
      }),
    );
    expect(wallet.calls).toEqual([]);
    expect(await types(orphan.transactionId)).toEqual(['WalletRequested', 'WinDeadLettered']);
    await watcherCaughtUp();
    expect(parkedOnDlq.map((message) => (message.value as { transactionId: number }).transactionId)).not.toContain(
      orphan.transactionId,
    );
  });

  it('a genuine win whose transactionId names another request: dead-lettered beside it as a conflict, the recorded one untouched', async () => {
    const first = await recordWinSource(rig.store, unsourced('alpha', 'p5'));
    const wallet = new ScriptedWallet();
    const context = dispatchContext(deps(wallet, recordingLog([])));
    await handleWalletRequest(context, messageOf(first));
    // Another round settled with the same win transactionId (an id generator fault): a genuine source, a taken id.
    const clash = await recordWinSource(rig.store, {
      ...unsourced('alpha', 'p5'),
      transactionId: first.transactionId,
      amountMinor: 900,
    });
    await handleWalletRequest(context, messageOf(clash));
    await handleWalletRequest(context, messageOf(clash));
    expect(wallet.calls.map((body) => body.transactionId)).toEqual([first.transactionId]);
    expect(await types(first.transactionId)).toEqual([
      'WalletRequested',
      'WalletAttempted',
      'WalletSucceeded',
      'WinDeadLettered',
    ]);
    const listed = (await findDeadLetteredWins(rig.store, { operatorId: 'alpha' })).filter(
      (letter) => letter.transactionId === first.transactionId,
    );
    expect(listed).toEqual([
      expect.objectContaining({ reason: 'transaction_id_conflict', attempts: 0, request: clash }),
    ]);
  });
});

describe('a message the handler parks itself', () => {
  it('is logged at error and reported to onParked with its topic, group and reason, like a park by the bus', async () => {
    const parked: ParkedMessage[] = [];
    const entries: Entry[] = [];
    const context = dispatchContext({
      ...deps(new ScriptedWallet(), recordingLog(entries)),
      onParked: (message) => void parked.push(message),
    });
    await handleWalletRequest(context, messageOf({ command: 'win', transactionId: 'not a number' }));
    expect(parked).toEqual([
      expect.objectContaining({
        topic: Topics.walletRequests,
        deadLetterTopic: `${Topics.walletRequests}.dlq`,
        groupId: walletSubscriptions(deps(new ScriptedWallet(), recordingLog([]))).requests.groupId,
        reason: expect.stringMatching(/^invalid wallet request/),
      }),
    ]);
    expect(entries.filter((entry) => entry.level === 'error').map((entry) => entry.msg)).toEqual([
      'wallet message parked',
    ]);
  });
});

/**
 * The delivery policy against the sandbox, in real time (spec §6, §8; D9, D11): the real 3 s and
 * 4 s limits, so the scenarios start together in beforeAll and each test awaits its own.
 * The slow bets answer 1 s before and 0.5 s after the 3 s limit, on a warm connection, while
 * nothing else of this test runs: lag on a busy machine only ever makes a reply later, and must
 * not push one answered in time past the limit (2.9 s failed there every time; 2.5 s and 2.0 s
 * beside the other scenarios now and then). That the limit is at most 3 s (what is left of the bet's
 * window when it is sent), not 3.5 s, the canceled bet's reason also says. The bet a cancel overtakes is applied 3 s after the limit: the cancel only has
 * to reach the wallet before then, and 0.5 s was too short with both cores busy.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { redriveDeadLetters } from '@reelstream/wallet-application';
import { systemClock } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import type { WalletReply, WalletRequest } from '@reelstream/contracts';
import type { FaultRuleInput } from '@reelstream/sandbox-service';
import { runRedrive } from '../src/index.js';
import { betRequest, startRig, winRequest, type Rig } from './rig.js';

let rig: Rig;
const scenarios = new Map<string, Promise<unknown>>();

function scenario<T>(name: string, run: () => Promise<T>): void {
  const running = run();
  running.catch(() => undefined); // awaited (and reported) by the test of the same name
  scenarios.set(name, running);
}
const outcomeOf = <T>(name: string) => scenarios.get(name) as Promise<T>;

const fault = (rule: FaultRuleInput) => rig.sandbox.faults.add({ operatorId: 'rig', ...rule });
const balanceOf = (playerId: string) => rig.sandbox.views.accounts('rig', playerId)[0]?.balanceMinor;
const ledgerOf = (playerId: string) => rig.sandbox.views.transactions({ operatorId: 'rig', playerId });
const typesOf = (events: { type: string }[]) => events.map((event) => event.type);

async function requestAndSettle(request: WalletRequest): Promise<{ reply: WalletReply; request: WalletRequest }> {
  return { reply: await rig.request(request), request };
}

beforeAll(async () => {
  rig = await startRig();
  const started = new Date();
  for (const player of [
    'warm_up',
    'slow_ok',
    'slow_fail',
    'slow_late',
    'flaky_win',
    'dead_win',
    'garbled',
    'garbled_win',
  ])
    rig.sandbox.views.setBalance('rig', player, 'EUR', 10_000);
  // One bet first, so connecting and first-call compilation are not inside a timed scenario.
  expect((await rig.request(betRequest('warm_up'))).statusCode).toBe('OK');

  scenario('win failing twice', async () => {
    fault({ playerId: 'flaky_win', command: 'win', httpStatus: 500, times: 2 });
    return requestAndSettle(await winRequest(rig.store, 'flaky_win'));
  });
  scenario('win failing three times, re-driven', async () => {
    fault({ playerId: 'dead_win', command: 'win', statusCode: 'ERR_UNKNOWN', times: 3 });
    const first = await requestAndSettle(await winRequest(rig.store, 'dead_win'));
    const deadLetter = await eventually(() => {
      const found = rig.deadLetters.find(
        (message) => (message.value as { transactionId: number }).transactionId === first.request.transactionId,
      );
      if (!found) throw new Error('no dead letter yet');
      return found;
    });
    const balanceBefore = balanceOf('dead_win');
    const progress: string[] = [];
    const summary = await runRedrive(
      { store: rig.store, bus: rig.requester, clock: systemClock },
      { operatorId: 'rig', since: started, concurrency: 2, timeoutMs: 30_000 },
      (line) => progress.push(line),
    );
    const again = await redriveDeadLetters(
      { store: rig.store, bus: rig.requester, clock: systemClock },
      { operatorId: 'rig', since: started },
    );
    const requestsBefore = rig.sandbox.views.requests({ transactionId: first.request.transactionId }).length;
    const directRedrive = await rig.request({
      command: 'redrive',
      transactionId: first.request.transactionId,
      operatorId: 'rig',
      playerId: 'dead_win',
      requestedAt: new Date().toISOString(),
    });
    const requestsAfter = rig.sandbox.views.requests({ transactionId: first.request.transactionId }).length;
    return {
      ...first,
      deadLetter,
      balanceBefore,
      summary,
      progress,
      again,
      directRedrive,
      requestsBefore,
      requestsAfter,
    };
  });
  scenario('bet with a malformed reply', () => {
    fault({ playerId: 'garbled', command: 'bet', malformedBody: true, applyFirst: true, times: 1 });
    return requestAndSettle(betRequest('garbled'));
  });
  scenario('win with a reply of the wrong shape', async () => {
    fault({ playerId: 'garbled_win', command: 'win', malformedBody: '{"balance":"lots","statusCode":"OK"}', times: 1 });
    return requestAndSettle(await winRequest(rig.store, 'garbled_win'));
  });
  scenario('bet signed with the wrong secret', () => requestAndSettle(betRequest('badsig', 1_000, 'missigned')));

  // The timed bets run after the rest has settled: nothing else in this process then competes with
  // them for a busy CPU between the request and its reply.
  await Promise.allSettled(scenarios.values());
  scenario('bet answered in 2.0 s', () => {
    fault({ playerId: 'slow_ok', command: 'bet', latencyMs: 2_000, times: 1 });
    return requestAndSettle(betRequest('slow_ok'));
  });
  scenario('bet answered in 3.5 s, applied first', () => {
    fault({ playerId: 'slow_fail', command: 'bet', latencyMs: 3_500, times: 1 });
    return requestAndSettle(betRequest('slow_fail'));
  });
  scenario('bet applied only after 6 s', () => {
    fault({ playerId: 'slow_late', command: 'bet', latencyMs: 6_000, latencyPhase: 'before_apply', times: 1 });
    return requestAndSettle(betRequest('slow_late'));
  });
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(scenarios.values());
  await rig?.stop();
});

describe('bet: one attempt within 3 s; otherwise the round is canceled (spec §6.1, D9)', () => {
  it('a bet answered after 2.0 s is accepted', async () => {
    const { reply, request } = await outcomeOf<{ reply: WalletReply; request: WalletRequest }>('bet answered in 2.0 s');
    expect(reply).toEqual({
      transactionId: request.transactionId,
      statusCode: 'OK',
      balanceMinor: 9_000,
      canceled: false,
    });
    expect(typesOf(await rig.events(request.transactionId))).toEqual([
      'WalletRequested',
      'WalletAttempted',
      'WalletSucceeded',
    ]);
    expect(balanceOf('slow_ok')).toBe(9_000);
  });

  it('a bet answered after 3.5 s is canceled: one cancel, which refunds the bet the wallet did apply', async () => {
    const { reply, request } = await outcomeOf<{ reply: WalletReply; request: WalletRequest }>(
      'bet answered in 3.5 s, applied first',
    );
    expect(reply).toMatchObject({ transactionId: request.transactionId, statusCode: 'ERR_UNKNOWN', canceled: true });
    // The call's limit is what is left of the bet's 3 s when it is sent (its deadline is requestedAt + 3 s).
    const limitMs = Number(/timeout: no reply within (\d+) ms/.exec(reply.reason ?? '')?.[1]);
    expect(limitMs).toBeGreaterThan(2_000);
    expect(limitMs).toBeLessThanOrEqual(3_000);
    const events = await eventually(async () => {
      const found = await rig.events(request.transactionId);
      expect(typesOf(found)).toContain('CancelSucceeded');
      return found;
    });
    expect(typesOf(events)).toEqual([
      'WalletRequested',
      'WalletAttempted',
      'WalletFailed',
      'CancelRequested',
      'WalletAttempted',
      'CancelSucceeded',
    ]);
    const cancelId = events.find((event) => event.type === 'CancelRequested')?.data['cancelTransactionId'];
    const ledger = ledgerOf('slow_fail');
    expect(
      ledger.map(({ command, applied, canceledBy, cancelEffect }) => ({ command, applied, canceledBy, cancelEffect })),
    ).toEqual([
      { command: 'bet', applied: true, canceledBy: cancelId, cancelEffect: null },
      { command: 'cancel', applied: true, canceledBy: null, cancelEffect: 'refunded' },
    ]);
    expect(balanceOf('slow_fail')).toBe(10_000);
  });

  it('a cancel that overtakes its slow bet takes effect once, and the late bet is refused', async () => {
    const { reply, request } = await outcomeOf<{ reply: WalletReply; request: WalletRequest }>(
      'bet applied only after 6 s',
    );
    expect(reply).toMatchObject({ statusCode: 'ERR_UNKNOWN', canceled: true });
    await eventually(
      () =>
        expect(
          ledgerOf('slow_late')
            .map((row) => row.command)
            .sort(),
        ).toEqual(['bet', 'cancel']),
      10_000,
    );
    const ledger = ledgerOf('slow_late');
    expect(ledger.find((row) => row.command === 'cancel')).toMatchObject({
      cancelEffect: 'preempted',
      refTransactionId: request.transactionId,
    });
    expect(ledger.find((row) => row.command === 'bet')).toMatchObject({ applied: false, statusCode: 'ERR_UNKNOWN' });
    expect(balanceOf('slow_late')).toBe(10_000);
  });

  it('a malformed reply is ERR_UNKNOWN: the bet is canceled and the money it took comes back', async () => {
    const { reply, request } = await outcomeOf<{ reply: WalletReply; request: WalletRequest }>(
      'bet with a malformed reply',
    );
    expect(reply).toMatchObject({ transactionId: request.transactionId, statusCode: 'ERR_UNKNOWN', canceled: true });
    expect(reply.reason).toMatch(/malformed: operator reply is not JSON/);
    await eventually(async () => expect(typesOf(await rig.events(request.transactionId))).toContain('CancelSucceeded'));
    expect(balanceOf('garbled')).toBe(10_000);
  });

  it('bad signatures are refused by the sandbox, and the bet counts as failed', async () => {
    const { reply, request } = await outcomeOf<{ reply: WalletReply; request: WalletRequest }>(
      'bet signed with the wrong secret',
    );
    expect(reply).toMatchObject({
      transactionId: request.transactionId,
      statusCode: 'ERR_INTEGRITY_CHECK_FAILED',
      canceled: true,
    });
    const received = rig.sandbox.views.requests({ operatorId: 'missigned', transactionId: request.transactionId });
    expect(received.map((entry) => entry.outcome)).toEqual(['bad_signature']);
    expect(rig.sandbox.views.transactions({ operatorId: 'missigned' })).toEqual([]);
  });
});

describe('win: 4 s, up to 2 more attempts, then the dead letters (spec §6.2, D11)', () => {
  it('a win failing twice then OK is applied once', async () => {
    const { reply, request } = await outcomeOf<{ reply: WalletReply; request: WalletRequest }>('win failing twice');
    expect(reply).toEqual({
      transactionId: request.transactionId,
      statusCode: 'OK',
      balanceMinor: 10_500,
      canceled: false,
    });
    const events = await rig.events(request.transactionId);
    expect(typesOf(events)).toEqual([
      'WalletRequested',
      'WalletAttempted',
      'WalletFailed',
      'WalletAttempted',
      'WalletFailed',
      'WalletAttempted',
      'WalletSucceeded',
    ]);
    expect(events.filter((event) => event.type === 'WalletFailed').map((event) => event.data['error'])).toEqual([
      expect.stringMatching(/^http_status: HTTP 500/),
      expect.stringMatching(/^http_status: HTTP 500/),
    ]);
    expect(rig.sandbox.views.requests({ transactionId: request.transactionId }).map((entry) => entry.outcome)).toEqual([
      'fault',
      'fault',
      'applied',
    ]);
    expect(ledgerOf('flaky_win').filter((row) => row.applied)).toHaveLength(1);
    expect(balanceOf('flaky_win')).toBe(10_500);
  });

  it('a win with a reply of the wrong shape counts as ERR_UNKNOWN and is retried', async () => {
    const { reply, request } = await outcomeOf<{ reply: WalletReply; request: WalletRequest }>(
      'win with a reply of the wrong shape',
    );
    expect(reply).toMatchObject({ statusCode: 'OK', balanceMinor: 10_500 });
    const failed = (await rig.events(request.transactionId)).filter((event) => event.type === 'WalletFailed');
    expect(failed.map((event) => event.data['error'])).toEqual([
      expect.stringMatching(/^malformed: malformed operator reply: balance/),
    ]);
  });

  it('a win failing 3 times is dead-lettered; re-drive then applies it once', async () => {
    const outcome = await outcomeOf<{
      reply: WalletReply;
      request: WalletRequest;
      deadLetter: { value: unknown };
      balanceBefore: number;
      summary: unknown;
      progress: string[];
      again: unknown;
      directRedrive: WalletReply;
      requestsBefore: number;
      requestsAfter: number;
    }>('win failing three times, re-driven');
    expect(outcome.reply).toMatchObject({
      transactionId: outcome.request.transactionId,
      statusCode: 'ERR_UNKNOWN',
      canceled: false,
      reason: expect.stringMatching(/^dead-lettered after 3 attempt/),
    });
    expect(outcome.deadLetter.value).toMatchObject({
      transactionId: outcome.request.transactionId,
      reason: 'delivery_failed',
      attempts: 3,
      request: outcome.request,
    });
    // Money owed to a player: one error line that says which operator, command and transaction.
    expect(
      rig.logs.filter(
        (line) =>
          line['level'] === 'error' &&
          line['transactionId'] === outcome.request.transactionId &&
          String(line['msg']).startsWith('callback given up: dead-lettered'),
      ),
    ).toEqual([expect.objectContaining({ operatorId: 'rig', command: 'win', attempt: 3 })]);
    expect(outcome.balanceBefore).toBe(10_000);
    expect(outcome.summary).toEqual({ total: 1, applied: 1, failed: 0, noAnswer: 0 });
    expect(outcome.progress).toEqual([
      expect.stringMatching(/^re-driving 1 dead-lettered win\(s\) of operator rig, dead-lettered since /),
      `[1/1] win ${outcome.request.transactionId} (operator rig, player dead_win, 5.00 EUR): applied, balance 105.00`,
      'done: 1 applied, 0 failed again, 0 without answer, of 1',
    ]);
    expect(outcome.again).toEqual({ total: 0, applied: 0, failed: 0, noAnswer: 0 });
    expect(ledgerOf('dead_win').filter((row) => row.applied)).toHaveLength(1);
    expect(balanceOf('dead_win')).toBe(10_500);
    // A re-drive of a win already applied is answered from the record, without calling the wallet.
    expect(outcome.directRedrive).toMatchObject({ statusCode: 'OK', balanceMinor: 10_500 });
    expect(outcome.requestsAfter).toBe(outcome.requestsBefore);
    const types = typesOf(await rig.events(outcome.request.transactionId));
    expect(types.slice(-3)).toEqual(['WinDeadLettered', 'WalletAttempted', 'WalletSucceeded']);
  });
});

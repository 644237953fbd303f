/**
 * Crash test with real processes: 800 wallet requests of 100 players while the dispatcher
 * (`apps/wallet-dispatcher/src/main.ts`, a child process) is SIGKILLed and restarted at random
 * moments, at least 20 times, against the sandbox with faults; `npm run test:dispatcher-crash`
 * (CRASH_LONG=1) is the long run, 2,000 requests and at least 50 kills. Then: every transactionId applied
 * exactly once, every failed bet or betwin canceled exactly once, no request lost, per-player order
 * kept, the sandbox's money equal to what the event log says — and redeliveries did happen.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openEventStore, openMessageBus } from '@reelstream/platform-backends';
import { OperatorDirectory } from '@reelstream/platform-config';
import {
  parseOperatorsConfig,
  playerKey,
  Topics,
  walletReply,
  walletTxStream,
  type OperatorConfigInput,
  type WalletReply,
  type WalletRequest,
} from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { BusHeaders, type EventStore, type MessageBus } from '@reelstream/platform-ports';
import type { TransactionView } from '@reelstream/sandbox-adapters';
import { startOperatorSandbox, type OperatorSandbox } from '@reelstream/sandbox-service';
import { eventually, recordStakeSource, recordWinSource } from '@reelstream/testing';
import { WalletTxRepository } from '@reelstream/wallet-application';
import type { WalletTxState } from '@reelstream/wallet-domain';
import { DispatcherProcess } from './dispatcher-process.js';
import { planTraffic, random, type PlayerPlan } from './traffic.js';

const LONG = process.env['CRASH_LONG'] === '1';
const KILLS = LONG ? 50 : 20;
const PLAYERS = 100;
const BURSTS = LONG ? 10 : 4; // of 2 requests: 2,000 requests, or 800
const TIMEOUT_MS = LONG ? 600_000 : 240_000;
const SEED = Number(process.env['CRASH_SEED'] ?? Date.now() % 1_000_000);
const SECRET = 'crash-test-signing-secret-01';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dir: string;
let sandbox: OperatorSandbox;
let store: EventStore;
let bus: MessageBus;
let operatorJson: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dispatcher-crash-'));
  const operator = (callbackUrl: string): OperatorConfigInput => ({
    id: 'crash',
    name: 'Crash test casino',
    apiToken: 'crash-api-token-0123456789',
    callbackUrl,
    signingSecret: SECRET,
    currency: 'EUR',
  });
  sandbox = await startOperatorSandbox(
    { operators: new OperatorDirectory(parseOperatorsConfig([operator('http://localhost/')])) },
    {
      port: 0,
      host: '127.0.0.1',
      databasePath: join(dir, 'sandbox.db'),
      autoCreateBalance: undefined,
      synchronous: 'NORMAL',
      adminToken: undefined,
      latencyMs: 0,
    },
  );
  operatorJson = JSON.stringify([operator(`${sandbox.url}/wallet/crash`)]);
  ({ store } = await openEventStore(`sqlite:${join(dir, 'reelstream.db')}`));
  bus = await openMessageBus(`sqlite:${join(dir, 'reelstream.db')}`, { instanceId: 'crash-requester' });
});

afterAll(async () => {
  await bus?.close();
  await store?.close();
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Failures spread over the players: refused and garbled bets, slow bets, flaky wins, refused cancels. */
function injectFaults(plans: readonly PlayerPlan[]): void {
  const player = (index: number) => plans[index]?.playerId as string;
  const add = (rule: Parameters<OperatorSandbox['faults']['add']>[0]) =>
    sandbox.faults.add({ operatorId: 'crash', ...rule });
  for (const index of [1, 2, 3, 4, 5])
    add({ playerId: player(index), command: 'bet', statusCode: 'ERR_UNKNOWN', applyFirst: true, times: 2 });
  for (const index of [1, 2, 3]) add({ playerId: player(index), command: 'cancel', httpStatus: 503, times: 3 });
  for (const index of [6, 7, 8]) add({ playerId: player(index), command: 'win', httpStatus: 500, times: 2 });
  for (const index of [11, 12]) add({ playerId: player(index), command: 'bet', latencyMs: 3_100, times: 1 });
  for (const index of [16, 17, 18]) add({ playerId: player(index), command: 'betwin', malformedBody: true, times: 1 });
  for (const index of [21, 22])
    add({ playerId: player(index), command: 'betwin', dropConnection: true, applyFirst: true, times: 1 });
  // Everyone else answers after 20 ms: calls are in flight when the kills come.
  add({ latencyMs: 20 });
}

describe('the dispatcher, SIGKILLed and restarted at random moments', () => {
  it(
    `applies every transaction exactly once and cancels every failed bet exactly once (${PLAYERS} players, ${PLAYERS * BURSTS * 2} requests, ≥ ${KILLS} kills)`,
    async () => {
      process.stdout.write(`crash test: seed ${SEED} (CRASH_SEED=${SEED} plays the same traffic again)\n`);
      const ids = new TimeOrderedIdGenerator(1);
      const plans = planTraffic({
        operatorId: 'crash',
        players: PLAYERS,
        burstsPerPlayer: BURSTS,
        seed: SEED,
        nextId: () => ids.next(),
        now: () => new Date().toISOString(),
      });
      const requests = plans.flatMap((plan) => plan.bursts.flat());
      expect(requests).toHaveLength(PLAYERS * BURSTS * 2);
      for (const plan of plans) sandbox.views.setBalance('crash', plan.playerId, 'EUR', plan.openingMinor);
      injectFaults(plans);

      // The requesters' side: replies by correlation id, as the game-server's bus.request does it.
      const replies = new Map<string, WalletReply>();
      const listener = await bus.subscribe({
        groupId: 'crash-requester-replies',
        topics: [Topics.walletReplies],
        fromOffset: 'latest',
        handler: async (message) =>
          void replies.set(message.headers[BusHeaders.correlationId] ?? '', walletReply.parse(message.value)),
      });
      await listener.ready;

      let kills = 0;
      const players = plans.map(async (plan) => {
        for (const [index, burst] of plan.bursts.entries()) {
          while (kills < index * (KILLS / BURSTS)) await sleep(50);
          // As the game-server does it: a bet or betwin is requested when the spin is accepted, its round's
          // RoundStarted stored first (the dispatcher sends no request without the event it comes from), so
          // its deadline is 3 s from then (a bet the restarting dispatcher takes later is not sent, and
          // canceled); a win is sent once its round is settled.
          for (const [position, request] of burst.entries())
            burst[position] =
              request.command === 'win'
                ? await recordWinSource(store, request)
                : await recordStakeSource(store, { ...request, requestedAt: new Date().toISOString() });
          const stamped = burst;
          await bus.publish(
            Topics.walletRequests,
            stamped.map((request) => ({
              key: playerKey(request),
              value: request,
              headers: {
                [BusHeaders.replyTo]: Topics.walletReplies,
                [BusHeaders.correlationId]: `c-${request.transactionId}`,
              },
            })),
          );
          while (!burst.every((request) => replies.has(`c-${request.transactionId}`))) await sleep(50);
        }
      });
      const allAnswered = Promise.all(players);

      const env = {
        DATA_DIR: dir,
        OPERATORS_JSON: operatorJson,
        HEALTH_PORT: '0',
        INSTANCE_ID: 'crash-dispatcher',
        WORKER_ID: '2',
        LOG_LEVEL: 'info',
        OTEL_SDK_DISABLED: 'true',
      };
      const rand = random(SEED + 1);
      const processes: DispatcherProcess[] = [];
      const started = performance.now();
      while (kills < KILLS) {
        const dispatcher = new DispatcherProcess(env);
        processes.push(dispatcher);
        if (rand() < 0.2) {
          await sleep(150 + rand() * 1_000); // some kills land while it starts
        } else {
          await Promise.race([
            dispatcher.ready,
            dispatcher.exited.then(() =>
              Promise.reject(new Error(`dispatcher exited early: ${dispatcher.diagnostics()}`)),
            ),
          ]);
          await sleep(30 + rand() * 700);
        }
        const exit = await dispatcher.kill('SIGKILL');
        expect(exit.signal === 'SIGKILL' || exit.code === 0).toBe(true);
        kills += 1;
      }

      const last = new DispatcherProcess(env);
      processes.push(last);
      await last.ready;
      await allAnswered;
      const records = new WalletTxRepository(store);
      const states = new Map<number, WalletTxState>();
      await eventually(
        async () => {
          for (const request of requests) {
            const state = (await records.load(request.transactionId)).state;
            states.set(request.transactionId, state);
            if (state.status === 'failed') expect(state.cancel?.succeeded).toBe(true);
          }
        },
        60_000,
        250,
      );
      expect((await last.kill('SIGTERM')).code).toBe(0);
      await listener.stop();
      const elapsedS = (performance.now() - started) / 1_000;

      // No request lost: each has its reply and a settled record, and the reply is the record's.
      expect(replies.size).toBe(requests.length);
      for (const request of requests) {
        const state = states.get(request.transactionId) as WalletTxState;
        expect(['succeeded', 'failed']).toContain(state.status);
        expect(replies.get(`c-${request.transactionId}`)?.statusCode).toBe(
          state.status === 'succeeded' ? 'OK' : state.lastFailure?.statusCode,
        );
      }

      // In the sandbox, every transactionId is applied exactly once, and every failed one is canceled exactly once.
      const ledger = sandbox.views.transactions({ operatorId: 'crash' });
      const byId = new Map(ledger.map((row) => [row.transactionId, row]));
      const cancelsByRef = new Map<number, TransactionView[]>();
      for (const row of ledger.filter((entry) => entry.command === 'cancel'))
        cancelsByRef.set(row.refTransactionId as number, [
          ...(cancelsByRef.get(row.refTransactionId as number) ?? []),
          row,
        ]);
      let failed = 0;
      for (const request of requests) {
        const state = states.get(request.transactionId) as WalletTxState;
        const row = byId.get(request.transactionId);
        if (state.status === 'succeeded') {
          expect(row).toMatchObject({ statusCode: 'OK', applied: true, canceledBy: null });
          expect(cancelsByRef.get(request.transactionId)).toBeUndefined();
          continue;
        }
        failed += 1;
        const cancelId = state.cancel?.cancelTransactionId;
        const cancels = cancelsByRef.get(request.transactionId) ?? [];
        expect(cancels.map((cancel) => [cancel.transactionId, cancel.cancelEffect])).toEqual([
          [cancelId, expect.stringMatching(/^(refunded|nothing_to_refund|preempted)$/)],
        ]);
        if (row?.applied) expect(row.canceledBy).toBe(cancelId);
      }
      const known = new Set([
        ...requests.map((request) => request.transactionId),
        ...[...states.values()].map((state) => state.cancel?.cancelTransactionId).filter((id) => id !== undefined),
      ]);
      expect(ledger.filter((row) => !known.has(row.transactionId))).toEqual([]);

      // The money: each player's balance is the opening balance moved by exactly the transactions the log says succeeded.
      for (const plan of plans) {
        let expected = plan.openingMinor;
        for (const request of plan.bursts.flat()) {
          if (states.get(request.transactionId)?.status !== 'succeeded') continue;
          expected +=
            request.command === 'bet'
              ? -request.amountMinor
              : request.command === 'win'
                ? request.amountMinor
                : request.winMinor - request.betMinor;
        }
        expect({
          player: plan.playerId,
          balance: sandbox.views.accounts('crash', plan.playerId)[0]?.balanceMinor,
        }).toEqual({ player: plan.playerId, balance: expected });
      }

      // Per-player order: the wallet first saw each player's transactions in the order they were published,
      // but for a win the operator's bulkhead did not send (its circuit was open, e.g. after the injected
      // failures): it is rescheduled on a delay topic and its player's later requests go on before it.
      // The only ones it never saw are bets the bulkhead did not send or that a restarted dispatcher took
      // after their deadline: failed, canceled, never reached the wallet.
      const rescheduledWins = new Set(
        processes.flatMap((process) =>
          process.lines.flatMap((line) => {
            const win = line.includes('"msg":"rescheduled"') ? /"reason":"win (\d+): /.exec(line) : null;
            return win?.[1] === undefined ? [] : [Number(win[1])];
          }),
        ),
      );
      // Nor does the order hold for a call whose outcome was lost: timed out, its connection lost, or its
      // dispatcher killed before the answer came. The wallet may take such a request at any later moment,
      // after the player's next ones (a loaded machine holds one for seconds). Those are the transactions
      // with a failure of cause `timeout` or `network`, or with more attempts than answers.
      const outcomeLost = new Set<number>();
      for (const request of requests) {
        const events = await store.readStream(walletTxStream(request.transactionId));
        const attempts = events.filter((event) => event.type === 'WalletAttempted').length;
        const answers = events.filter((event) => event.type === 'WalletSucceeded' || event.type === 'WalletFailed');
        const lost = answers.some((event) =>
          /^(timeout|network): /.test(String((event.data as { error?: unknown }).error)),
        );
        if (lost || attempts > answers.length) outcomeLost.add(request.transactionId);
      }
      const received = sandbox.views.requests({ operatorId: 'crash' });
      const notSent = (request: WalletRequest) => {
        const state = states.get(request.transactionId);
        return (
          request.command !== 'win' &&
          state?.status === 'failed' &&
          /^(unavailable|timeout): not sent/.test(state.lastFailure?.reason ?? '')
        );
      };
      let unsent = 0;
      for (const plan of plans) {
        const firstSeen: number[] = [];
        for (const entry of received) {
          if (
            entry.playerId !== plan.playerId ||
            entry.command === 'cancel' ||
            entry.transactionId === null ||
            firstSeen.includes(entry.transactionId)
          )
            continue;
          firstSeen.push(entry.transactionId);
        }
        const published = plan.bursts.flat();
        const seen = new Set(firstSeen);
        const missing = published.filter((request) => !seen.has(request.transactionId));
        unsent += missing.length;
        expect({
          player: plan.playerId,
          missing: missing.filter((request) => !notSent(request)).map((request) => request.transactionId),
        }).toEqual({ player: plan.playerId, missing: [] });
        const inOrder = (transactionId: number) =>
          seen.has(transactionId) && !rescheduledWins.has(transactionId) && !outcomeLost.has(transactionId);
        // Each id with its command and outcome, so that a failure says what was reordered.
        const commandOf = new Map(published.map((request) => [request.transactionId, request.command]));
        const label = (transactionId: number) => {
          const state = states.get(transactionId);
          return `${transactionId} ${commandOf.get(transactionId)} ${state?.status} after ${state?.attempts} attempts`;
        };
        expect({ player: plan.playerId, order: firstSeen.filter(inOrder).map(label) }).toEqual({
          player: plan.playerId,
          order: published
            .map((request) => request.transactionId)
            .filter(inOrder)
            .map(label),
        });
      }

      const redelivered = processes.reduce((sum, process) => sum + process.count('wallet request redelivered'), 0);
      const resent = processes.reduce(
        (sum, process) => sum + process.count('re-sending an attempt whose outcome is unknown'),
        0,
      );
      const replayed = received.filter((entry) => entry.outcome === 'replayed').length;
      process.stdout.write(
        `crash test (seed ${SEED}): ${requests.length} requests, ${PLAYERS} players, ${kills} SIGKILLs + 1 clean stop in ${elapsedS.toFixed(1)} s; ` +
          `${failed} failed bets/betwins each canceled once; redeliveries observed: ${redelivered} requests redelivered to a restarted dispatcher, ` +
          `${resent} calls re-sent after a lost outcome, ${replayed} answered by the wallet as replays, ${unsent} bets not sent (the operator's circuit open, or their deadline passed), ` +
          `${rescheduledWins.size} wins rescheduled while it was open, ${outcomeLost.size} transactions whose outcome was lost or never sent (left out of the order check)\n`,
      );
      expect(kills).toBeGreaterThanOrEqual(KILLS);
      expect(redelivered).toBeGreaterThan(0);
      expect(failed).toBeGreaterThan(0);
    },
    TIMEOUT_MS,
  );
});

/**
 * One operator never stalls another, with the real dispatcher process: two
 * operators A and B, each with its own sandbox wallet, whose players have the same playerIds.
 * B's wallet hangs (or refuses) for a fault window while both play. A must get no 503 (no reply
 * within the game-server's wallet time-out) and A's p99 request time must stay within 2× of the
 * baseline measured in the same test before the fault (a baseline under P99_FLOOR_MS counted as
 * that); after B recovers, every cancel of B lands
 * (checked in B's sandbox ledger) and every win of B is applied.
 *
 * `npm run test:isolation` runs the 60 s fault window of the issue (ISOLATION_LONG=1); the normal
 * jest run uses a short one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openEventStore, openMessageBus } from '@reelstream/platform-backends';
import { OperatorDirectory } from '@reelstream/platform-config';
import { parseOperatorsConfig, type OperatorConfigInput } from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import type { EventStore, MessageBus } from '@reelstream/platform-ports';
import { startOperatorSandbox, type FaultRuleInput, type OperatorSandbox } from '@reelstream/sandbox-service';
import { eventually, recordStakeSource } from '@reelstream/testing';
import { WalletTxRepository } from '@reelstream/wallet-application';
import { DispatcherProcess } from './dispatcher-process.js';
import { percentile, Players, sleep, type Sample } from './isolation-traffic.js';

const LONG = process.env['ISOLATION_LONG'] === '1';
const FAULT_MS = LONG ? 60_000 : 12_000;
const BASELINE_MS = LONG ? 20_000 : 8_000;
/** Not measured: the first seconds of a fresh process (JIT, first SQLite pages) are not the baseline. */
const WARMUP_MS = 3_000;
const PLAYERS = 8;
/** Each player starts a spin every this long. */
const SPIN_PERIOD_MS = 300;
/**
 * A baseline p99 under this counts as this. The p99 of some 400 requests moves by more than 2× with
 * the machine alone (60 and 116 ms in the two baselines of one run), while A stalled by B would wait
 * for the wallet time-out: seconds.
 */
const P99_FLOOR_MS = 100;
/** A cancel refused for the whole window waits on the 30 s delay topic at most: it lands within this after recovery. */
const RECOVERY_MS = 90_000;
const CASE_MS = WARMUP_MS + BASELINE_MS + FAULT_MS + RECOVERY_MS + 60_000;
const SECRET = 'isolation-test-signing-secret-01';
const A = 'casino_a';
const B = 'casino_b';

let dir: string;
let sandboxes: Record<string, OperatorSandbox>;
let store: EventStore;
let bus: MessageBus;
let dispatcher: DispatcherProcess;
const ids = new TimeOrderedIdGenerator(3);
const nextId = () => ids.next();
const playerIds = Array.from({ length: PLAYERS }, (_, n) => `player_${n + 1}`);

const operator = (id: string, callbackUrl: string): OperatorConfigInput => ({
  id,
  name: `Isolation ${id}`,
  apiToken: `${id}-api-token-0123456789`,
  callbackUrl,
  signingSecret: SECRET,
  currency: 'EUR',
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dispatcher-isolation-'));
  const start = (id: string) =>
    startOperatorSandbox(
      { operators: new OperatorDirectory(parseOperatorsConfig([operator(id, 'http://localhost/')])) },
      {
        port: 0,
        host: '127.0.0.1',
        databasePath: join(dir, `sandbox-${id}.db`),
        autoCreateBalance: 1_000_000,
        synchronous: 'NORMAL',
        adminToken: undefined,
        latencyMs: 0,
      },
    );
  sandboxes = { [A]: await start(A), [B]: await start(B) };
  const operatorsJson = JSON.stringify([
    operator(A, `${sandboxes[A]?.url}/wallet/${A}`),
    operator(B, `${sandboxes[B]?.url}/wallet/${B}`),
  ]);
  ({ store } = await openEventStore(`sqlite:${join(dir, 'reelstream.db')}`));
  bus = await openMessageBus(`sqlite:${join(dir, 'reelstream.db')}`, { instanceId: 'isolation-requester' });
  dispatcher = new DispatcherProcess({
    DATA_DIR: dir,
    OPERATORS_JSON: operatorsJson,
    HEALTH_PORT: '0',
    INSTANCE_ID: 'isolation-dispatcher',
    WORKER_ID: '4',
    LOG_LEVEL: 'info',
    OTEL_SDK_DISABLED: 'true',
    // B's own, smaller bulkhead (per-operator configuration); A keeps the defaults.
    OPERATOR_BULKHEADS_JSON: JSON.stringify({ [B]: { maxInFlight: 4 } }),
  });
  await Promise.race([
    dispatcher.ready,
    dispatcher.exited.then(() => Promise.reject(new Error(`dispatcher exited early: ${dispatcher.diagnostics()}`))),
  ]);
}, 60_000);

afterAll(async () => {
  await dispatcher?.kill('SIGTERM');
  await bus?.close();
  await store?.close();
  await Promise.all(Object.values(sandboxes ?? {}).map((sandbox) => sandbox.stop()));
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

const sandbox = (id: string): OperatorSandbox => {
  const found = sandboxes[id];
  if (!found) throw new Error(`no sandbox for ${id}`);
  return found;
};

/**
 * After B recovers: every bet of B is settled, and each that failed has its cancel acknowledged
 * and recorded by B's wallet (the bet refunded if it was applied); every win of B is applied once.
 * A bet without a reply in time is judged by its record (the game-server's resolver would ask again).
 */
async function expectEverythingOfBLanded(samples: readonly Sample[]): Promise<{ cancels: number; wins: number }> {
  const records = new WalletTxRepository(store);
  const bets = samples.filter((sample) => sample.request.command === 'bet');
  const wins = samples.filter((sample) => sample.request.command === 'win');
  const failed = new Set<number>();
  await eventually(
    async () => {
      for (const sample of bets) {
        const { transactionId } = sample.request;
        const { state } = await records.load(transactionId);
        if (state.status === 'failed') {
          failed.add(transactionId);
          expect({ transactionId, cancelSucceeded: state.cancel?.succeeded }).toEqual({
            transactionId,
            cancelSucceeded: true,
          });
        } else {
          expect({ transactionId, status: state.status }).toEqual({ transactionId, status: 'succeeded' });
        }
      }
      for (const sample of wins)
        expect({
          transactionId: sample.request.transactionId,
          status: (await records.load(sample.request.transactionId)).state.status,
        }).toEqual({ transactionId: sample.request.transactionId, status: 'succeeded' });
    },
    RECOVERY_MS,
    500,
  );
  const ledger = sandbox(B).views.transactions({ operatorId: B });
  for (const sample of bets) {
    const { transactionId } = sample.request;
    const bet = ledger.find((row) => row.command === 'bet' && row.transactionId === transactionId);
    const cancels = ledger.filter(
      (row) => row.command === 'cancel' && row.refTransactionId === transactionId && row.applied,
    );
    if (failed.has(transactionId)) {
      expect({ transactionId, cancels: cancels.length }).toEqual({ transactionId, cancels: 1 });
      if (bet?.applied) expect(bet.canceledBy).not.toBeNull();
    } else {
      expect({ transactionId, applied: bet?.applied, canceledBy: bet?.canceledBy, cancels: cancels.length }).toEqual({
        transactionId,
        applied: true,
        canceledBy: null,
        cancels: 0,
      });
    }
  }
  for (const sample of wins)
    expect(
      ledger.filter(
        (row) => row.command === 'win' && row.transactionId === sample.request.transactionId && row.applied,
      ),
    ).toHaveLength(1);
  return { cancels: failed.size, wins: wins.length };
}

const faults: [string, Omit<FaultRuleInput, 'operatorId'>][] = [
  ['hangs', { latencyMs: 30_000 }],
  ['refuses', { httpStatus: 503 }],
];

describe(`operator B's wallet failing for ${FAULT_MS / 1_000} s while operator A plays (real dispatcher process)`, () => {
  it.each(faults)(
    'B’s wallet %s: A gets no 503 and keeps its p99 within 2× of the baseline; all of B’s cancels and wins land after B recovers',
    async (name, fault) => {
      const a = new Players(bus, store, A, playerIds, nextId, SPIN_PERIOD_MS);
      const b = new Players(bus, store, B, playerIds, nextId, SPIN_PERIOD_MS);
      a.phase = b.phase = 'warmup';
      a.start();
      b.start();
      await sleep(WARMUP_MS);
      a.phase = b.phase = 'baseline';
      await sleep(BASELINE_MS);
      a.phase = b.phase = 'fault';
      const rule = sandbox(B).faults.add({ operatorId: B, ...fault });
      await sleep(FAULT_MS);
      sandbox(B).faults.remove(rule.id);
      a.phase = b.phase = 'recovered';
      await Promise.all([a.stop(), b.stop()]);

      const ofA = (phase: string) => a.samples.filter((sample) => sample.phase === phase);
      const p99 = (samples: readonly Sample[]) =>
        percentile(
          samples.map((sample) => sample.ms),
          99,
        );
      const unavailable = a.samples.filter((sample) => sample.reply === undefined).length;
      const notOk = a.samples.filter((sample) => sample.reply !== undefined && sample.reply.statusCode !== 'OK').length;
      const baseline = p99(ofA('baseline'));
      const during = p99(ofA('fault'));
      const bFailed = b.samples.filter(
        (sample) => sample.phase === 'fault' && sample.reply?.statusCode !== 'OK',
      ).length;
      console.log(
        `isolation [B ${name}, ${FAULT_MS / 1_000} s]: A p99 ${baseline.toFixed(1)} ms without B's fault, ${during.toFixed(1)} ms with it ` +
          `(${ofA('baseline').length} / ${ofA('fault').length} requests); A 503s ${unavailable}; B requests failed during the fault ${bFailed}`,
      );
      const landed = await expectEverythingOfBLanded(b.samples);
      console.log(
        `isolation [B ${name}]: after recovery B cancels landed ${landed.cancels}/${landed.cancels}, B wins applied ${landed.wins}/${landed.wins}`,
      );
      expect(unavailable).toBe(0);
      expect(notOk).toBe(0);
      expect(ofA('fault').length).toBeGreaterThan(PLAYERS * 10);
      expect(bFailed).toBeGreaterThan(0);
      expect(during).toBeLessThanOrEqual(2 * Math.max(baseline, P99_FLOOR_MS));
    },
    CASE_MS,
  );

  it(
    'with B refusing the cancel of its player_1, A’s cancel for its own player_1 lands promptly; B’s lands once B recovers',
    async () => {
      const players = {
        a: new Players(bus, store, A, [], nextId, SPIN_PERIOD_MS),
        b: new Players(bus, store, B, [], nextId, SPIN_PERIOD_MS),
      };
      const bet = (operatorId: string) =>
        ({
          command: 'bet',
          transactionId: nextId(),
          operatorId,
          playerId: 'player_1',
          roundId: nextId(),
          providerId: 1,
          gameId: 10,
          currency: 'EUR',
          bonusId: 0,
          requestedAt: new Date().toISOString(),
          amountMinor: 100,
          isBonusBusy: false,
        }) as const;
      const refuseCancels = sandbox(B).faults.add({
        operatorId: B,
        playerId: 'player_1',
        command: 'cancel',
        httpStatus: 503,
      });
      sandbox(B).faults.add({
        operatorId: B,
        playerId: 'player_1',
        command: 'bet',
        statusCode: 'ERR_UNKNOWN',
        applyFirst: true,
        times: 1,
      });
      sandbox(A).faults.add({
        operatorId: A,
        playerId: 'player_1',
        command: 'bet',
        statusCode: 'ERR_UNKNOWN',
        applyFirst: true,
        times: 1,
      });

      const ofB = await players.b.send(await recordStakeSource(store, bet(B)));
      expect(ofB.reply).toMatchObject({ canceled: true });
      await eventually(
        () =>
          expect(
            sandbox(B)
              .faults.list()
              .find((rule) => rule.id === refuseCancels.id)?.hits,
          ).toBeGreaterThanOrEqual(1),
        10_000,
      );

      const ofA = await players.a.send(await recordStakeSource(store, bet(A)));
      expect(ofA.reply).toMatchObject({ canceled: true });
      const answered = performance.now();
      await eventually(
        () =>
          expect(
            sandbox(A)
              .views.transactions({ operatorId: A, playerId: 'player_1' })
              .filter(
                (row) => row.command === 'cancel' && row.refTransactionId === ofA.request.transactionId && row.applied,
              ),
          ).toHaveLength(1),
        10_000,
        10,
      );
      const aCancelMs = performance.now() - answered;
      // B's cancel is still refused meanwhile.
      expect(
        sandbox(B)
          .views.transactions({ operatorId: B, playerId: 'player_1' })
          .filter(
            (row) => row.command === 'cancel' && row.refTransactionId === ofB.request.transactionId && row.applied,
          ),
      ).toEqual([]);

      sandbox(B).faults.remove(refuseCancels.id);
      const landed = await expectEverythingOfBLanded([ofB]);
      console.log(
        `same playerId: A's cancel landed ${aCancelMs.toFixed(0)} ms after A's bet was answered, while B's cancel of its player_1 was refused; B's cancel landed after recovery (${landed.cancels})`,
      );
      expect(aCancelMs).toBeLessThan(2_000);
    },
    RECOVERY_MS + 30_000,
  );
});

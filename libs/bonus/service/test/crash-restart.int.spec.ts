/**
 * The ledger as a real child process (`node --import tsx apps/bonus-ledger/src/main.ts`) on one
 * SQLite file shared with this test, which decides registrations and free spins on the store as
 * the gateway and the game-server do (in their own processes) and follows each through the
 * ledger's status query over the bus, while the ledger is SIGKILLed and restarted, twice.
 * Afterwards: every command took effect and the ledger showed each, no event is in the log twice,
 * every free-spin win reached wallet.requests, the read model equals one rebuilt from scratch, and
 * a bonus call whose expireAt passed while the ledger was down is expired.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openEventStore, openMessageBus, type OpenedEventStore } from '@reelstream/platform-backends';
import { OperatorDirectory, demoOperators } from '@reelstream/platform-config';
import {
  parseOperatorsConfig,
  Topics,
  walletWinRequest,
  type BonusCallRecord,
  type WalletWinRequest,
} from '@reelstream/contracts';
import { isRequestTimeout, type Consumer, type MessageBus } from '@reelstream/platform-ports';
import { eventually, WorkerProcess } from '@reelstream/testing';
import { PLAYER_BONUS_FILTER } from '@reelstream/bonus-application';
import { rebuildBonusReadModel, SqliteBonusReadModel } from '@reelstream/bonus-adapters';
import { accepted, BonusClient, InProcessBonus, message, OPERATOR, registration } from './bonus-requests.js';
import { readModelPath } from '../src/index.js';

const MAIN = join(import.meta.dirname, '../../../../apps/bonus-ledger/src/main.ts');
const PLAYERS = 12;
const READY = /"service":"bonus-ledger",.*"msg":"ready"/;
/** A cold `node --import tsx` start on a busy machine took over 20 s. */
const STARTUP_MS = 60_000;
const SPINS = 4;

const LEDGER_INSTANCE_ID = 'ledger-crash-test';
let dir = '';
let backends: OpenedEventStore;
let bus: MessageBus;
let walletConsumer: Consumer;
const wins: WalletWinRequest[] = [];
let ledger: WorkerProcess | undefined;
let bonus: InProcessBonus;

function startLedger(): WorkerProcess {
  ledger = new WorkerProcess(MAIN, {
    DATA_DIR: dir,
    HEALTH_PORT: '0',
    INSTANCE_ID: LEDGER_INSTANCE_ID,
    WORKER_ID: '5',
    LOG_LEVEL: 'info',
    OTEL_SDK_DISABLED: 'true',
  });
  return ledger;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bonus-ledger-crash-'));
  const url = `sqlite:${join(dir, 'reelstream.db')}`;
  backends = await openEventStore(url);
  bus = await openMessageBus(url, { instanceId: 'crash-test-client' });
  // The ledger process runs with the demo operators (no OPERATORS_* set); it draws ids as worker 5.
  const operators = new OperatorDirectory(parseOperatorsConfig(demoOperators('http://localhost:1')));
  bonus = new InProcessBonus(backends.store, (operatorId) => operators.get(operatorId), 6);
  walletConsumer = await bus.subscribe({
    groupId: 'crash-test-wallet',
    topics: [Topics.walletRequests],
    handler: async (received) => void wins.push(walletWinRequest.parse(received.value)),
  });
});

afterAll(async () => {
  if (ledger?.alive) await ledger.kill('SIGKILL');
  await walletConsumer.stop();
  await bus.close();
  await backends.store.close();
  rmSync(dir, { recursive: true, force: true });
});

let timedOut = 0;

/**
 * The ledger's status of a bonus call by platformId, asked again (same commandId) until the ledger
 * answers: a client retrying across the outage. The ledger answers from its read model once it caught
 * up with the log, so the answer shows every command decided before the question.
 */
async function shownByLedger(platformId: string): Promise<BonusCallRecord> {
  const client = new BonusClient(bus, 1_500);
  const request = message('GetBonusCall', { operatorId: OPERATOR, platformId });
  for (;;) {
    try {
      const answer = await client.send(request);
      if (!answer.ok) throw new Error(`${platformId}: ${answer.error.code}`);
      return answer.result;
    } catch (error) {
      if (!isRequestTimeout(error)) throw error;
      timedOut += 1;
    }
  }
}

describe('bonus-ledger SIGKILLed and restarted while commands flow', () => {
  it('shows every command, duplicates no event, relays every win, keeps the projection equal to a rebuild, and expires across the outage', async () => {
    await startLedger().waitForLine(READY, STARTUP_MS);

    // Far enough ahead that the first crash comes before it even on a busy machine (checked below).
    const expireAt = new Date(Date.now() + 8_000).toISOString();
    accepted(await bonus.register(registration({ platformId: 'crash-expiry', playerId: 'crash_expiry', expireAt })));
    expect(await shownByLedger('crash-expiry')).toMatchObject({ status: 'active' });

    const progress = { registered: 0, settled: 0 };
    const issueIds = new Map<number, Set<number>>();
    const flow = Promise.all(
      Array.from({ length: PLAYERS }, async (_, player) => {
        const playerId = `crash_${player}`;
        const platformId = `crash-${player}`;
        const request = registration({ platformId, playerId, spinAmount: SPINS, callAmountMinor: 100_000 });
        const { issueId } = accepted(await bonus.register(request, `register-${player}`));
        issueIds.set(player, new Set([issueId]));
        expect(await shownByLedger(platformId)).toMatchObject({ issueId, status: 'active', spinsUsed: 0 });
        progress.registered += 1;
        // A resend after the ledger showed it answers the same issueId (D17).
        issueIds.get(player)?.add(accepted(await bonus.register(request, `register-${player}`)).issueId);
        for (let spin = 1; spin <= SPINS; spin++) {
          const roundId = 10_000 + player * 100 + spin;
          const round = { operatorId: OPERATOR, playerId, issueId, roundId };
          accepted(await bonus.startFreeSpin({ ...round, gameId: 101 + (spin % 2) }, `start-${roundId}`));
          expect(await shownByLedger(platformId)).toMatchObject({ openRoundId: roundId, spinsUsed: spin });
          accepted(await bonus.settleFreeSpin({ ...round, winMinor: spin * 10 }, `settle-${roundId}`));
          // The wins so far: 10 + 20 + … + spin × 10.
          expect(await shownByLedger(platformId)).toMatchObject({
            openRoundId: null,
            totalWinMinor: 5 * spin * (spin + 1),
          });
          progress.settled += 1;
        }
      }),
    );

    // First crash while registrations flow, and down across the expiring bonus's expireAt.
    await eventually(() => expect(progress.registered).toBeGreaterThanOrEqual(3), 15_000);
    await ledger?.kill('SIGKILL');
    const atFirstCrash = { ...progress };
    const expiryStream = 'playerBonus-demo-crash_expiry';
    expect((await backends.store.readStream(expiryStream)).map((event) => event.type)).toEqual(['BonusCallRegistered']);
    await eventually(() => expect(Date.now()).toBeGreaterThan(Date.parse(expireAt) + 100), 15_000);
    await startLedger().waitForLine(READY, STARTUP_MS);
    const back = Date.now();
    const expired = await eventually(async () => {
      const status = await shownByLedger('crash-expiry');
      expect(status.status).toBe('expired');
      return status;
    }, 10_000);
    // Expired by the restarted ledger's start-up sweep: recorded no later than 1 s after it was ready.
    expect(Date.parse(expired.expiredAt as string)).toBeGreaterThan(Date.parse(expireAt));
    expect(Date.parse(expired.expiredAt as string) - back).toBeLessThan(1_000);

    // Second crash while free spins flow.
    await eventually(() => expect(progress.settled).toBeGreaterThanOrEqual(PLAYERS), 20_000);
    await ledger?.kill('SIGKILL');
    const atSecondCrash = { ...progress };
    await startLedger().waitForLine(READY, STARTUP_MS);
    await flow;
    // Both crashes hit while commands were flowing, and clients noticed the outages.
    expect(atFirstCrash.settled).toBeLessThan(PLAYERS * SPINS);
    expect(atSecondCrash.settled).toBeLessThan(PLAYERS * SPINS);
    expect(timedOut).toBeGreaterThan(0);

    // No command lost, none done twice: one registration per platformId, one start and one settle per round.
    const events = await backends.store.readAll({ filter: PLAYER_BONUS_FILTER });
    expect(new Set(events.map((event) => event.eventId)).size).toBe(events.length);
    for (let player = 0; player < PLAYERS; player++) {
      expect(issueIds.get(player)?.size).toBe(1);
      const stream = events.filter((event) => event.streamId === `playerBonus-demo-crash_${player}`);
      expect(stream.map((event) => event.type)).toEqual([
        'BonusCallRegistered',
        ...Array.from({ length: SPINS }, () => ['FreeSpinStarted', 'FreeSpinSettled']).flat(),
        'BonusCallCompleted',
      ]);
    }
    const settledEvents = events
      .filter((event) => event.type === 'FreeSpinSettled')
      .map((event) => event.data as { transactionId: number; roundId: number; winMinor: number });
    expect(settledEvents).toHaveLength(PLAYERS * SPINS);

    // Every win reached wallet.requests (at least once, always with the transactionId of its event).
    await eventually(
      () =>
        expect(new Set(wins.map((win) => win.transactionId))).toEqual(
          new Set(settledEvents.map((settled) => settled.transactionId)),
        ),
      10_000,
    );
    for (const win of wins)
      expect(settledEvents).toContainEqual(
        expect.objectContaining({ transactionId: win.transactionId, roundId: win.roundId, winMinor: win.amountMinor }),
      );

    // The running ledger's projection equals one rebuilt from the log.
    const [last] = await backends.store.readAll({ direction: 'backwards', maxCount: 1, filter: PLAYER_BONUS_FILTER });
    const comparePositions = (a: string, b: string) => backends.store.comparePositions(a, b);
    const live = SqliteBonusReadModel.open(readModelPath(dir, LEDGER_INSTANCE_ID), { comparePositions });
    const rebuilt = SqliteBonusReadModel.open(join(dir, 'rebuilt-read.db'), { comparePositions });
    try {
      await eventually(async () => expect(await live.checkpoint()).toBe(last?.position), 5_000);
      await rebuildBonusReadModel(backends.store, rebuilt);
      expect(live.allRecords()).toEqual(rebuilt.allRecords());
      expect(live.allRecords().filter((record) => record.status === 'completed')).toHaveLength(PLAYERS);
    } finally {
      live.close();
      rebuilt.close();
    }

    // And it stops cleanly on SIGTERM.
    expect(await ledger?.kill('SIGTERM')).toEqual({ code: 0, signal: null });
  }, 240_000);
});

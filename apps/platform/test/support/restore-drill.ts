/**
 * The restore drill (`npm run drill:restore`, and short in the e2e suite): `npm start` on PostgreSQL
 * with the embedded bus, real traffic, an online `pg_dump` of the event store while it runs, more
 * traffic, a stop, a restore into a fresh database, `npm start` again on the restored store with the
 * same DATA_DIR (the bus and the operator's wallet survive a lost store, as Kafka and a casino's
 * wallet do), more traffic, and the checks: the kept log reconciled with the wallet before the stop;
 * the restored log is exactly the kept log up to the backup; every wallet transaction the restored
 * log records agrees with the wallet, and the wallet's only other money is what the lost events named;
 * the players after the restore reconcile to the cent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { PostgresForTests } from '@reelstream/testing/postgres';
import { SandboxAdmin } from './clients.js';
import { readEventLog, readSandboxLedger, reconcile } from './reconcile.js';
import { explainLoss, type LossExplained } from './restore-drill-loss.js';
import {
  compareLogs,
  dumpSchema,
  restoreIntoNewDatabase,
  transactionIdsOf,
  type Backup,
} from './restore-drill-store.js';
import { startTraffic, type Traffic, type TrafficCounts } from './restore-drill-traffic.js';
import { oneProcessOnPostgres, type RunningPlatform } from './topologies.js';

export interface DrillPlan {
  /** Traffic before the backup, after it (before the stop), and on the restored store. */
  beforeMs: number;
  afterMs: number;
  restoredMs: number;
  /** Players in play at once. */
  concurrency: number;
  /** Progress lines. */
  say: (line: string) => void;
}

export interface DrillFigures {
  traffic: { beforeBackup: TrafficCounts; total: TrafficCounts; afterRestore: TrafficCounts };
  backup: { ms: number; bytes: number; eventsInIt: number };
  restoreMs: number;
  /** From spawning `npm start` on the restored store to its ready line. */
  startMs: number;
  /** The same on the empty store, before the drill: what a start costs without a restore. */
  firstStartMs: number;
  /** Rounds the restored log had open at the restart, and how the platform ended them. */
  openRounds: { open: number; settled: number; canceled: number };
  /** From spawning it until every round the restored log left open was resolved. */
  roundsResolvedMs: number;
  eventsKept: number;
  eventsLost: number;
  lostByType: Record<string, number>;
  loss: LossExplained;
  /** Callbacks the wallet answered from its records (same transactionId) after the restart. */
  walletReplays: number;
  /** Every failed check, readable; empty when the drill passed. */
  problems: string[];
}

const ENV = {
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_SECOND: '1000000',
  RATE_LIMIT_BURST: '1000000',
  PLAYER_RATE_LIMIT_PER_SECOND: '1000000',
  PLAYER_RATE_LIMIT_BURST: '1000000',
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `check` until it resolves or `withinMs` passed (then its last error). @reelstream/testing has one,
 * but its index loads jest's globals, which `npm run drill:restore` runs without.
 */
async function eventually<T>(check: () => Promise<T>, withinMs: number, everyMs: number): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
    }
    await sleep(everyMs);
  }
}
const countsOf = (traffic: Traffic): TrafficCounts => ({ ...traffic.counts });

async function balancesOf(platform: RunningPlatform, players: ReadonlyMap<string, number>) {
  const wallet = new SandboxAdmin(() => platform.sandboxUrl, platform.operator.id);
  const balances = new Map<string, { openingMinor: number; balanceMinor: number }>();
  for (const [playerId, openingMinor] of players)
    balances.set(playerId, { openingMinor, balanceMinor: await wallet.balanceMinor(playerId) });
  return balances;
}

/** The money of `players` against the log at `eventStoreUrl`, once it agrees or after `withinMs`. */
async function reconciled(
  platform: RunningPlatform,
  eventStoreUrl: string,
  players: ReadonlyMap<string, number>,
  withinMs: number,
): Promise<string[]> {
  let problems: string[] = [];
  await eventually(
    async () => {
      const log = await readEventLog(platform.dataDir, eventStoreUrl);
      const ledger = readSandboxLedger(platform.dataDir, platform.operator.id);
      problems = reconcile(log, ledger, await balancesOf(platform, players));
      if (problems.length > 0) throw new Error(problems.join('\n'));
    },
    withinMs,
    250,
  ).catch(() => undefined);
  return problems;
}

/** The wallet's request log: its last seq, and how many requests after `afterSeq` it answered from its records. */
function walletRequests(dataDir: string, afterSeq: number): { lastSeq: number; replays: number } {
  const db = new Database(join(dataDir, 'operator-sandbox.db'), { readonly: true, fileMustExist: true });
  try {
    const last = db.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM sandbox_requests').get();
    const replays = db
      .prepare<[number], { n: number }>(
        "SELECT count(*) AS n FROM sandbox_requests WHERE seq > ? AND outcome = 'replayed'",
      )
      .get(afterSeq);
    return { lastSeq: last?.seq ?? 0, replays: replays?.n ?? 0 };
  } finally {
    db.close();
  }
}

/** The rounds the restored log left open, and how the restarted platform ended them (within a minute). */
async function resolveOpenRounds(dataDir: string, eventStoreUrl: string) {
  const openIds = async () => {
    const log = await readEventLog(dataDir, eventStoreUrl);
    return [...log.rounds].filter(([, round]) => !round.settled && !round.canceled).map(([roundId]) => roundId);
  };
  const open = await openIds();
  const problems = await eventually(
    async () => {
      const left = await openIds();
      if (left.length > 0) throw new Error(`after the restart: ${left.length} rounds still open`);
      return [];
    },
    60_000,
    250,
  ).catch((error: Error) => [error.message]);
  const log = await readEventLog(dataDir, eventStoreUrl);
  const ended = open.map((roundId) => log.rounds.get(roundId));
  return {
    open: open.length,
    settled: ended.filter((round) => round?.settled).length,
    canceled: ended.filter((round) => round?.canceled).length,
    problems,
  };
}

/** Traffic on the kept store with an online backup in the middle; the platform stopped after, the wallet settled. */
async function runUntilStopped(plan: DrillPlan, keptUrl: string, dataDir: string, backupFile: string) {
  const spawned = performance.now();
  const platform = await oneProcessOnPostgres(keptUrl).start(dataDir, { env: ENV });
  const firstStartMs = performance.now() - spawned;
  const traffic = startTraffic(platform, 'drill_before', plan.concurrency);
  await sleep(plan.beforeMs);
  plan.say(`backing up while players play (${traffic.counts.registrations} registrations so far)`);
  const beforeBackup = countsOf(traffic);
  const backup: Backup = await dumpSchema(keptUrl, backupFile);
  await sleep(plan.afterMs);
  await traffic.stop();
  plan.say('traffic stopped; waiting for the wallet to settle, then stopping the platform');
  const problems = (await reconciled(platform, keptUrl, traffic.players, 30_000)).map(
    (line) => `before the restore: ${line}`,
  );
  const exitCodes = await platform.stop('SIGTERM');
  if (exitCodes.some((code) => code !== 0)) problems.push(`the platform stopped with ${exitCodes.join(', ')}`);
  return { backup, traffic, beforeBackup, firstStartMs, problems };
}

/**
 * Runs the drill in a schema of its own on `postgres`, keeps nothing. Long because: it is the drill's
 * script step by step, every figure measured around the step it times.
 */
export async function runRestoreDrill(postgres: PostgresForTests, plan: DrillPlan): Promise<DrillFigures> {
  const kept = await postgres.schema('restore_drill');
  const dataDir = mkdtempSync(join(tmpdir(), 'restore-drill-'));
  const restoredName = `restore_drill_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  let restored: Awaited<ReturnType<typeof restoreIntoNewDatabase>> | undefined;
  try {
    const before = await runUntilStopped(plan, kept.url, dataDir, join(dataDir, 'event-store.dump'));
    const problems = [...before.problems];
    plan.say(`restoring ${before.backup.bytes} bytes into database ${restoredName}`);
    restored = await restoreIntoNewDatabase(kept.url, before.backup, restoredName);
    const comparison = await compareLogs(kept.url, restored.eventStoreUrl, before.backup);
    problems.push(...comparison.problems);

    const seqBeforeRestart = walletRequests(dataDir, 0).lastSeq;
    const spawned = performance.now();
    // The bonus ledger's read model (a file in DATA_DIR) is ahead of the restored log: rebuilt from it.
    const platform = await oneProcessOnPostgres(restored.eventStoreUrl).start(dataDir, {
      env: { ...ENV, READ_MODEL_REBUILD: 'true' },
    });
    const startMs = performance.now() - spawned;
    plan.say(`the platform is ready on the restored store after ${Math.round(startMs)} ms`);
    const restoredUrl = restored.eventStoreUrl;
    const rounds = await resolveOpenRounds(dataDir, restoredUrl);
    const roundsResolvedMs = performance.now() - spawned;
    problems.push(...rounds.problems);

    const after = startTraffic(platform, 'drill_after', plan.concurrency);
    await sleep(plan.restoredMs);
    await after.stop();
    problems.push(
      ...(await reconciled(platform, restoredUrl, after.players, 30_000)).map(
        (line) => `players after the restore: ${line}`,
      ),
    );
    const lostTransactionIds = transactionIdsOf(comparison.lost);
    const loss = explainLoss(
      reconcile(
        await readEventLog(dataDir, restoredUrl),
        readSandboxLedger(dataDir, platform.operator.id),
        await balancesOf(platform, before.traffic.players),
      ),
      lostTransactionIds,
    );
    problems.push(...loss.unexplained.map((line) => `players before the restore: ${line}`));
    const walletReplays = walletRequests(dataDir, seqBeforeRestart).replays;
    const exitCodes = await platform.stop('SIGTERM');
    if (exitCodes.some((code) => code !== 0))
      problems.push(`the restored platform stopped with ${exitCodes.join(', ')}`);

    const lostByType: Record<string, number> = {};
    for (const event of comparison.lost) lostByType[event.type] = (lostByType[event.type] ?? 0) + 1;
    return {
      traffic: { beforeBackup: before.beforeBackup, total: countsOf(before.traffic), afterRestore: countsOf(after) },
      backup: { ms: before.backup.ms, bytes: before.backup.bytes, eventsInIt: comparison.restored },
      restoreMs: restored.ms,
      startMs,
      firstStartMs: before.firstStartMs,
      openRounds: { open: rounds.open, settled: rounds.settled, canceled: rounds.canceled },
      roundsResolvedMs,
      eventsKept: comparison.kept,
      eventsLost: comparison.lost.length,
      lostByType,
      loss,
      walletReplays,
      problems,
    };
  } finally {
    await restored?.drop();
    await kept.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * `npm run bench:ledger`: bonus registrations per second on the embedded back ends (one SQLite
 * file, WAL, synchronous=FULL, for the store and the bus), with the bonus-ledger (the real app,
 * `apps/bonus-ledger/src/main.ts`) running in its own process throughout: its relay and read model
 * follow every registration, as in production.
 *
 * 1. Registrations as the gateway decides them since ADR 0011: `Registrations` of
 *    @reelstream/bonus-application in this process, on the event store (reserve the platformId on
 *    its guard stream, decide on the player's stream, append with the expected revisions). Latency
 *    is the call as the gateway's route awaits it. This is what a registration costs now.
 * 2. Cancel, which still travels the bus (it finds the player through the guard or the read
 *    model): CancelBonusCall by platformId of the bonus calls of (1), same clients, through
 *    `bus.request` on `bonus.commands` → the bonus-ledger process → `bonus.replies`. No bus message
 *    registers a bonus call any more, so the figure this bench printed before ADR 0011 (a
 *    registration over the bus) is only in the old tables.
 *
 * CLIENTS concurrent clients each send one request at a time, every registration for its own
 * player (so every registration is accepted and does the full work: guard + player stream).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMessageBus } from '@reelstream/platform-backends';
import { catalogLookup, Registrations } from '@reelstream/bonus-application';
import { demoOperators, OperatorDirectory } from '@reelstream/platform-config';
import {
  bonusCommandKey,
  isRefusal,
  parseBonusReply,
  parseOperatorsConfig,
  sha256HexOf,
  Topics,
  type BonusRequestMessage,
  type CancelBonusCallCommand,
  type RegisterBonusCallData,
} from '@reelstream/contracts';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { systemClock, type MessageBus } from '@reelstream/platform-ports';

const CLIENTS = 50;
const WARM_UP = 200;
const MEASURED = 4_000;

const metadata = () => {
  const id = randomUUID();
  return { commandId: id, correlationId: id, operatorId: 'demo', issuedAt: new Date().toISOString() };
};

function registration(n: number): RegisterBonusCallData {
  const body = {
    operatorId: 'demo',
    platformId: `bench-${n}`,
    playerId: `bench_player_${n}`,
    providerId: 1,
    gameIds: [101, 102],
    bonusType: 1 as const,
    currency: 'EUR',
    callAmountMinor: 5_000,
    spinAmount: 10,
    baseBetAmountMinor: 20,
    expireAt: new Date(Date.now() + 86_400_000).toISOString(),
  };
  return { ...body, requestHash: sha256HexOf(JSON.stringify(body)) };
}

function cancel(n: number): CancelBonusCallCommand {
  return {
    type: 'CancelBonusCall',
    version: 1,
    data: { operatorId: 'demo', platformId: `bench-${n}` },
    metadata: metadata(),
  };
}

/** One request/reply to the bonus-ledger over the bus, answered with the ledger's reply. */
async function askOverTheBus(bus: MessageBus, command: BonusRequestMessage) {
  const reply = await bus.request(
    Topics.bonusCommands,
    { key: bonusCommandKey(command), value: command },
    { replyTopic: Topics.bonusReplies, timeoutMs: 30_000 },
  );
  return parseBonusReply(command.type, reply.value);
}

/** One request/reply to the bonus-ledger over the bus; a refusal is a bench failure. */
async function overTheBus(bus: MessageBus, command: BonusRequestMessage): Promise<void> {
  const answer = await askOverTheBus(bus, command);
  if (!answer.ok) throw new Error(`${command.type} refused: ${answer.error.code} ${answer.error.message}`);
}

interface Run {
  ms: number;
  latencies: number[];
}

/** Requests `from` … `from + count - 1`, CLIENTS at a time, each client one request after the other. */
async function run(from: number, count: number, one: (n: number) => Promise<void>): Promise<Run> {
  const latencies: number[] = [];
  let next = from;
  const end = from + count;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < end) {
        const n = next++;
        const sent = performance.now();
        await one(n);
        latencies.push(performance.now() - sent);
      }
    }),
  );
  return { ms: performance.now() - start, latencies };
}

/** Warm-up, then the measured run, on numbers from `base` on. */
async function measure(base: number, one: (n: number) => Promise<void>): Promise<Run> {
  await run(base, WARM_UP, one);
  return run(base + WARM_UP, MEASURED, one);
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

function report(label: string, { ms, latencies }: Run): void {
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(
    `  ${label.padEnd(62)} ${((MEASURED * 1000) / ms).toFixed(0).padStart(6)}/s   p50 ${percentile(sorted, 50).toFixed(1).padStart(6)} ms   p99 ${percentile(sorted, 99).toFixed(1).padStart(6)} ms   max ${(sorted[sorted.length - 1] ?? NaN).toFixed(1)} ms`,
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-'));
  const dbPath = join(dir, 'reelstream.db');
  const ledger = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '../apps/bonus-ledger/src/main.ts')],
    {
      cwd: join(import.meta.dirname, '..'),
      env: {
        ...process.env,
        DATA_DIR: dir,
        HEALTH_PORT: '0',
        INSTANCE_ID: 'ledger-bench',
        LOG_LEVEL: 'warn',
        OTEL_SDK_DISABLED: 'true',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise((resolve) => ledger.once('exit', resolve));
  let bus: MessageBus | undefined;
  let store: SqliteEventStore | undefined;
  try {
    bus = await openMessageBus(`sqlite:${dbPath}`, { instanceId: 'ledger-bench-client' });
    // The store as the gateway opens it (EVENT_STORE_URL unset: synchronous=FULL).
    store = SqliteEventStore.open(dbPath, { synchronous: 'FULL' });
    // The operators and catalog the ledger process runs with (no OPERATORS_* set: the demo operator).
    const operators = new OperatorDirectory(parseOperatorsConfig(demoOperators('http://127.0.0.1:9')));
    const registrations = new Registrations({
      store,
      clock: systemClock,
      // Worker 1, the gateway's (DEFAULT_WORKER_IDS): the ledger process draws with 2.
      ids: new TimeOrderedIdGenerator(1),
      catalog: catalogLookup(loadCatalogFile()),
      operators: (operatorId) => operators.get(operatorId),
    });
    // The first query waits on the bus until the ledger has started and answers it (not found: nothing is registered).
    await askOverTheBus(bus, {
      type: 'GetBonusCall',
      version: 1,
      data: { operatorId: 'demo', platformId: 'bench-warm-up' },
      metadata: metadata(),
    });

    const inProcess = await measure(0, async (n) => {
      const { commandId, correlationId, operatorId } = metadata();
      const answer = await registrations.register(registration(n), { commandId, correlationId, operatorId });
      if (isRefusal(answer)) throw new Error(`registration refused: ${answer.code} ${answer.message}`);
    });
    const cancels = await measure(0, (n) => overTheBus(bus as MessageBus, cancel(n)));

    console.log(
      `bonus-ledger bench: SQLite WAL synchronous=FULL, the bonus-ledger in its own process; ${CLIENTS} concurrent clients, ${MEASURED} requests after ${WARM_UP} warm-up each`,
    );
    report('registrations decided in process (the gateway, ADR 0011)', inProcess);
    report('CancelBonusCall over the bus → bonus-ledger → reply', cancels);
  } finally {
    await bus?.close();
    await store?.close();
    ledger.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

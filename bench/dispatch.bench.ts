/**
 * `npm run bench:dispatch`: wallet callbacks per second and their latency through the platform —
 * bus → dispatcher → operator sandbox (5 ms latency) → reply on the bus — next to direct calls
 * to the same sandbox at the same concurrency, as ratios: direct got calls (the baseline)
 * and direct calls with the dispatcher's own client (undici).
 *
 * - The sandbox runs as its own process (apps/operator-sandbox, SANDBOX_LATENCY_MS=5).
 * - The dispatcher runs in this process on the embedded back ends (one SQLite file, WAL,
 *   synchronous=FULL): each callback is a request on wallet.requests, for a win the read of its
 *   source event (the source is stored before the clock starts), two appends to its
 *   walletTx stream (attempt before the call, outcome after), the signed POST, the reply on
 *   wallet.replies and the offset commit.
 * - Direct got: the same signed POSTs over got 14 as the dispatcher made them before undici
 *   (bench/support/got-operator-wallet.ts), nothing else: the baseline.
 * - Direct undici: the same signed POSTs with the dispatcher's own client (HttpOperatorWallet).
 * - Concurrency 16 = the partitions of wallet.requests: 16 players, one per partition, each
 *   sending its next request when the previous one is answered; direct: 16 loops of calls each.
 *   A second line shows 100 players with 100 requests in flight, where the key → partition hash
 *   decides how many partitions are busy.
 * - Under each run: this process's CPU time per callback (the steadier figure on a shared
 *   machine), the durable commits per callback (event-store group commits, log publishes), and the
 *   sandbox process's CPU time per call (the operator's wallet: what bounds every row on two cores).
 * - BENCH_HOPS=1: also where each callback's time goes, hop by hop (bench/support/callback-hops.ts),
 *   measured through wrappers of the dispatcher's ports.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { openEventStore, openMessageBus } from '@reelstream/platform-backends';
import { OperatorDirectory } from '@reelstream/platform-config';
import {
  parseOperatorsConfig,
  Topics,
  walletReply,
  type OperatorConfig,
  type WalletRequest,
} from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { partitionFor } from '@reelstream/platform-messaging-sqlite';
import { systemClock, type EventStore, type MessageBus } from '@reelstream/platform-ports';
import { startWalletDispatcher } from '@reelstream/wallet-service';
import { HttpOperatorWallet } from '@reelstream/wallet-adapters';
import { createLogger } from '@reelstream/platform-telemetry';
import { recordStakeSource } from '../libs/testing/src/stake-sources.js';
import { recordWinSource } from '../libs/testing/src/win-sources.js';
import { callbackFor } from '@reelstream/wallet-domain';
import { CallbackHops } from './support/callback-hops.js';
import { cpuMsOf } from './support/profile.js';
import { GotOperatorWallet } from './support/got-operator-wallet.js';

const CONCURRENCY = 16;
const ROUND_MS = 4_000;
const SANDBOX_LATENCY_MS = 5;
const SECRET = 'bench-signing-secret-0123456789';

const ids = new TimeOrderedIdGenerator(5);
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

interface Measure {
  count: number;
  ms: number;
  latencies: number[];
  /** This process's CPU time (user + system) over the run: dispatcher, requester and the wins' sources. */
  cpuMs?: number;
  /** Durable commits over the run: event-store group commits, and log publish transactions of both buses. */
  storeCommits?: number;
  publishCommits?: number;
  /** The operator sandbox's CPU time over the run (its own process): the wallet's share of each call. */
  walletCpuMs?: number;
}

interface CommitCounters {
  storeCommits(): number;
  publishCommits(): number;
  walletCpuMs(): number;
}

/** Runs `run` and adds this process's CPU time and the durable commits it caused. */
async function withCost(counters: CommitCounters, run: () => Promise<Measure>): Promise<Measure> {
  const cpu = process.cpuUsage();
  const store = counters.storeCommits();
  const publish = counters.publishCommits();
  const wallet = counters.walletCpuMs();
  const measure = await run();
  const used = process.cpuUsage(cpu);
  return {
    ...measure,
    cpuMs: (used.user + used.system) / 1_000,
    walletCpuMs: counters.walletCpuMs() - wallet,
    storeCommits: counters.storeCommits() - store,
    publishCommits: counters.publishCommits() - publish,
  };
}

function request(playerId: string, n: number): WalletRequest {
  const common = {
    transactionId: ids.next(),
    operatorId: 'bench',
    playerId,
    roundId: ids.next(),
    providerId: 1,
    gameId: 10,
    currency: 'EUR',
    bonusId: 0,
    requestedAt: new Date().toISOString(),
  } as const;
  return n % 2 === 0
    ? { ...common, command: 'bet', amountMinor: 100, isBonusBusy: false }
    : { ...common, command: 'win', amountMinor: 100, isRoundFinished: true };
}

/** `loops` sequential senders for `ms`; each `send` is one callback, measured end to end (what `prepare` does is not measured). */
async function drive<T>(
  loops: number,
  ms: number,
  prepare: (loop: number, n: number) => T | Promise<T>,
  send: (prepared: T) => Promise<void>,
): Promise<Measure> {
  const latencies: number[] = [];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: loops }, async (_, loop) => {
      for (let n = 0; performance.now() - start < ms; n++) {
        const prepared = await prepare(loop, n);
        const sent = performance.now();
        await send(prepared);
        latencies.push(performance.now() - sent);
      }
    }),
  );
  return { count: latencies.length, ms: performance.now() - start, latencies: latencies.sort((a, b) => a - b) };
}

async function startSandbox(dir: string): Promise<{ url: string; pid: number | undefined; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/operator-sandbox/src/main.ts'], {
    env: {
      ...process.env,
      DATA_DIR: dir,
      SANDBOX_PORT: '0',
      SANDBOX_HOST: '127.0.0.1',
      SANDBOX_LATENCY_MS: String(SANDBOX_LATENCY_MS),
      SANDBOX_INITIAL_BALANCE: '1000000',
      OPERATORS_JSON: JSON.stringify([
        {
          id: 'bench',
          name: 'Bench',
          apiToken: 'bench-api-token-0123456789',
          callbackUrl: 'http://localhost/',
          signingSecret: SECRET,
          currency: 'EUR',
        },
      ]),
      OTEL_SDK_DISABLED: 'true',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as { service?: unknown; msg?: unknown; url?: unknown };
      if (entry.service === 'operator-sandbox' && entry.msg === 'ready' && typeof entry.url === 'string')
        resolve(entry.url);
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid,
    stop: () => new Promise((resolve) => (child.once('exit', () => resolve()), child.kill('SIGTERM'))),
  };
}

/** Players whose keys land on distinct partitions, so `count` of them keep `count` partitions busy. */
function playersOnDistinctPartitions(count: number, partitions: number): string[] {
  const byPartition = new Map<number, string>();
  for (let i = 0; byPartition.size < count; i++) {
    const player = `bench_player_${i}`;
    const partition = partitionFor(player, partitions);
    if (!byPartition.has(partition)) byPartition.set(partition, player);
  }
  return [...byPartition.values()];
}

/** Each win's round is settled first, as the game-server does it: the dispatcher checks every win against its source. */
async function throughDispatcher(
  requester: MessageBus,
  store: EventStore,
  players: readonly string[],
  loops: number,
): Promise<Measure> {
  const prepare = async (loop: number, n: number) => {
    const value = request(players[loop % players.length] as string, n);
    const sourced =
      value.command === 'win' ? await recordWinSource(store, value) : await recordStakeSource(store, value);
    return { key: value.playerId, value: sourced };
  };
  return drive(loops, ROUND_MS, prepare, async (message) => {
    const answer = await requester.request(Topics.walletRequests, message, {
      replyTopic: Topics.walletReplies,
      timeoutMs: 30_000,
    });
    const reply = walletReply.parse(answer.value);
    if (reply.statusCode !== 'OK') throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
  });
}

async function direct(
  wallet: Pick<HttpOperatorWallet, 'call'>,
  operator: OperatorConfig,
  players: readonly string[],
): Promise<Measure> {
  return drive(
    CONCURRENCY,
    ROUND_MS,
    (loop, n) => callbackFor(request(players[loop] as string, n)),
    async (body) => {
      const result = await wallet.call(operator, body, 3_000);
      if (result.kind !== 'reply' || result.statusCode !== 'OK')
        throw new Error(`unexpected answer ${JSON.stringify(result)}`);
    },
  );
}

const dir = mkdtempSync(join(tmpdir(), 'dispatch-bench-'));
const sandbox = await startSandbox(dir);
try {
  const operators = new OperatorDirectory(
    parseOperatorsConfig([
      {
        id: 'bench',
        name: 'Bench',
        apiToken: 'bench-api-token-0123456789',
        callbackUrl: `${sandbox.url}/wallet/bench`,
        signingSecret: SECRET,
        currency: 'EUR',
      },
    ]),
  );
  const operator = operators.get('bench') as OperatorConfig;
  const url = `sqlite:${join(dir, 'reelstream.db')}`;
  const { store } = await openEventStore(url);
  const bus = await openMessageBus(url, { instanceId: 'bench-dispatcher' });
  const requesterBus = await openMessageBus(url, { instanceId: 'bench-requester' });
  const hops = process.env['BENCH_HOPS'] === '1' ? new CallbackHops() : undefined;
  const hopsWallet = hops && new HttpOperatorWallet({ maxSockets: 64 });
  const requester = hops ? hops.requester(requesterBus) : requesterBus;
  const dispatcher = await startWalletDispatcher(
    {
      store: hops ? hops.store(store) : store,
      bus: hops ? hops.dispatcherBus(bus) : bus,
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(6),
      logger: createLogger({ service: 'bench', level: 'error' }),
      operators,
      ...(hops && hopsWallet ? { wallet: hops.wallet(hopsWallet) } : {}),
    },
    { healthPort: 0, maxSockets: 64 },
  );
  await dispatcher.ready;
  const gotWallet = new GotOperatorWallet();
  const undiciWallet = new HttpOperatorWallet({ maxSockets: 64 });

  const distinct = playersOnDistinctPartitions(CONCURRENCY, 16);
  const many = Array.from({ length: 100 }, (_, i) => `bench_many_${i}`);
  // Warm-up: connections, statements, JIT.
  await throughDispatcher(requester, store, distinct, CONCURRENCY);
  await direct(gotWallet, operator, distinct);
  await direct(undiciWallet, operator, distinct);
  hops?.report('the warm-up');

  const counters: CommitCounters = {
    storeCommits: () => (store as { commitStats?: { transactions: number } }).commitStats?.transactions ?? NaN,
    publishCommits: () =>
      [bus, requesterBus]
        .map((each) => (each as { publishStats?: { transactions: number } }).publishStats?.transactions ?? NaN)
        .reduce((a, b) => a + b),
    walletCpuMs: () => cpuMsOf(sandbox.pid) ?? NaN,
  };
  const viaDispatcher = await withCost(counters, () => throughDispatcher(requester, store, distinct, CONCURRENCY));
  const hopsOf16 = hops?.report(`${CONCURRENCY} players`) ?? [];
  const viaGot = await withCost(counters, () => direct(gotWallet, operator, distinct));
  const viaUndici = await withCost(counters, () => direct(undiciWallet, operator, distinct));
  const manyPlayers = await withCost(counters, () => throughDispatcher(requester, store, many, 100));
  const hopsOf100 = hops?.report('100 players') ?? [];

  const rate = (m: Measure) => (m.count * 1_000) / m.ms;
  const latency = (m: Measure) =>
    `p50 ${percentile(m.latencies, 50).toFixed(1)} ms, p99 ${percentile(m.latencies, 99).toFixed(1)} ms`;
  const walletCost = (m: Measure) =>
    `the sandbox's own process ${((m.walletCpuMs ?? NaN) / m.count).toFixed(2)} ms/call`;
  const callCost = (m: Measure) => `CPU ${((m.cpuMs ?? NaN) / m.count).toFixed(2)} ms/call; ${walletCost(m)}`;
  const ratio = (m: Measure, base: Measure) =>
    `throughput ${(rate(m) / rate(base)).toFixed(2)}, p50 latency ${(percentile(m.latencies, 50) / percentile(base.latencies, 50)).toFixed(2)}×`;
  const cost = (m: Measure) =>
    `CPU ${((m.cpuMs ?? NaN) / m.count).toFixed(2)} ms/callback, commits/callback: event store ${((m.storeCommits ?? NaN) / m.count).toFixed(2)}, log ${((m.publishCommits ?? NaN) / m.count).toFixed(2)}; ${walletCost(m)}`;
  const rows: [string, string][] = [
    [
      `bus → dispatcher → sandbox, concurrency ${CONCURRENCY} (${CONCURRENCY} players, one per partition)`,
      `${rate(viaDispatcher).toFixed(0)} callbacks/s  ${latency(viaDispatcher)}  (${viaDispatcher.count} callbacks)`,
    ],
    ['  its cost in this process', cost(viaDispatcher)],
    [
      `direct got calls to the sandbox, concurrency ${CONCURRENCY} (the issue's baseline)`,
      `${rate(viaGot).toFixed(0)} callbacks/s  ${latency(viaGot)}  (${viaGot.count} calls)`,
    ],
    ['  its cost in this process', callCost(viaGot)],
    [
      `direct calls with the dispatcher's client (undici), concurrency ${CONCURRENCY}`,
      `${rate(viaUndici).toFixed(0)} callbacks/s  ${latency(viaUndici)}  (${viaUndici.count} calls)`,
    ],
    ['  its cost in this process', callCost(viaUndici)],
    ["dispatcher / direct got (the issue's baseline)", ratio(viaDispatcher, viaGot)],
    ["dispatcher / direct undici (the dispatcher's own client)", ratio(viaDispatcher, viaUndici)],
    [
      'bus → dispatcher → sandbox, 100 players, 100 requests in flight',
      `${rate(manyPlayers).toFixed(0)} callbacks/s  ${latency(manyPlayers)}  (${manyPlayers.count} callbacks)`,
    ],
    ['  its cost in this process', cost(manyPlayers)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log(
    `dispatch bench: sandbox latency ${SANDBOX_LATENCY_MS} ms, SQLite WAL synchronous=FULL, 16 partitions, ${ROUND_MS / 1_000} s per run, node ${process.version}`,
  );
  for (const [label, value] of rows) console.log(`  ${label.padEnd(width)}  ${value}`);
  for (const line of [...hopsOf16, ...hopsOf100]) console.log(line);

  gotWallet.close();
  await undiciWallet.close();
  await dispatcher.stop();
  await hopsWallet?.close();
  await Promise.all([bus.close(), requesterBus.close()]);
  await store.close();
} finally {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
}

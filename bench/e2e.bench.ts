/**
 * `npm run bench:e2e`: the real platform as `npm start` runs it (one process, embedded SQLite
 * back ends with synchronous=FULL, a temp DATA_DIR), driven over HTTP from this process:
 *
 * 1. register: POST /v1/bonus-call/register, each request a new bonus call (own platformId and
 *    player), through auth, validation and the registration decided in the gateway on the guard
 *    and player streams (ADR 0011; the ledger's relay and read model follow). Baseline, same run,
 *    same connections: the same request with an expireAt in the past, which the same gateway
 *    refuses (422 EXPIRE_AT_IN_PAST) after the same auth and validation, without touching the
 *    store: what the durable, idempotent decision costs on top.
 * 2. free spins end to end: players each play their free-spin bonus through the player API; a
 *    spin counts when the operator's wallet (the sandbox) has applied its win — page API →
 *    game-server (start and settle on the player's bonus stream, ADR 0006) → the
 *    bonus-ledger's relay → wallet-dispatcher → signed callback.
 *    Baseline, same run, same players and concurrency: demo spins through the same player API
 *    (no ledger, no wallet). Each phase first plays as many spins by other players, unmeasured: the
 *    figures are those of a running platform, not of its code being compiled.
 *
 * With a PostgreSQL server (PG_URL, or the machine's at 127.0.0.1:5432), both again with the events in
 * PostgreSQL (EVENT_STORE_URL=postgres://…, a schema of its own, dropped after). With KAFKA_BROKERS set, both
 * again with `npm start` on BUS_URL=kafka://… (that broker), and with both, on Kafka and PostgreSQL together:
 * each printed after the embedded rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import {
  fourProcesses,
  oneProcess,
  oneProcessOnKafka,
  oneProcessOnKafkaAndPostgres,
  oneProcessOnPostgres,
  oneProcessWalletApart,
  type Topology,
} from '../apps/platform/test/support/topologies.js';
import { Agent } from 'undici';
import { call, OperatorClient } from '../apps/platform/test/support/clients.js';
import { postgresForTests, postgresNotice, type PostgresForTests } from '@reelstream/testing/postgres';
import { censusMark, cpuMsOf, profileArgs } from './support/profile.js';
import { benchRegistration } from './support/registration.js';

const CONNECTIONS = 32;
const DURATION_S = 10;
const WARMUP_S = 2;
const PLAYERS = 40;
const SPINS_PER_PLAYER = 25;

interface Measured {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  ok: number;
  refused: number;
  errors: number;
}

async function measureRegister(
  gatewayUrl: string,
  token: string,
  expireAt: string,
  durationS: number,
): Promise<Measured> {
  const result = await autocannon({
    url: gatewayUrl,
    connections: CONNECTIONS,
    duration: durationS,
    requests: [
      {
        method: 'POST',
        path: '/v1/bonus-call/register',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: benchRegistration(expireAt) }),
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    refused: result['4xx'],
    errors: result['5xx'] + result.errors + result.timeouts,
  };
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/**
 * The players' HTTP client: one keep-alive connection per player over undici's `request`, the lightest client
 * node has (the tests' `fetch` cost about 1 ms of this process's CPU per spin, on the cores the platform uses).
 */
const players = new Agent({ connections: PLAYERS, pipelining: 1 });

/** Every player plays its spins one after the other, all players at once; the spin latencies. */
async function playAll(gameUrl: string, tokens: readonly string[], body: Record<string, unknown>): Promise<number[]> {
  const latencies: number[] = [];
  const { origin } = new URL(gameUrl);
  const json = JSON.stringify(body);
  await Promise.all(
    tokens.map(async (token) => {
      for (let spin = 0; spin < SPINS_PER_PLAYER; spin++) {
        const started = performance.now();
        const answer = await players.request({
          origin,
          path: `/api/sessions/${token}/spin`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: json,
        });
        const text = await answer.body.text();
        if (answer.statusCode !== 200) throw new Error(`spin refused: ${answer.statusCode} ${text}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

async function appliedWins(sandboxUrl: string, operatorId: string): Promise<number> {
  const response = await call('GET', `${sandboxUrl}/admin/transactions?operatorId=${operatorId}&limit=100000`);
  return (response.body.transactions as { command: string; applied: boolean }[]).filter(
    (row) => row.command === 'win' && row.applied,
  ).length;
}

const only = process.argv.includes('--free-only') ? 'free' : 'all';
// `--processes`: one process per service as they are deployed (the e2e suite's four-process topology from
// built bundles, the operator sandbox a fifth process standing in for the operator's wallet); otherwise `npm start`.
// `--wallet-apart`: `npm start` with the operator's wallet (the sandbox) in a process of its own, as an operator's
// wallet is in production; the platform's CPU is then the platform's alone.
const embedded = process.argv.includes('--processes')
  ? fourProcesses
  : process.argv.includes('--wallet-apart')
    ? oneProcessWalletApart
    : oneProcess;
// With KAFKA_BROKERS (e.g. what `npm run infra:kafka -- start` prints), the same rows again with `npm start` on
// BUS_URL=kafka://…, after the embedded ones.
const kafkaBrokers = process.env['KAFKA_BROKERS'];
// `--embedded-only`: the embedded rows alone, without PostgreSQL or Kafka (what `bench:e2e:against` compares).
const embeddedOnly = process.argv.includes('--embedded-only');
// BENCH_PLATFORM_ROOT: the platform is another checkout's (`bench:e2e:against`), driven by this client.
const platformRoot = process.env['BENCH_PLATFORM_ROOT'];
if (platformRoot !== undefined && embedded === fourProcesses)
  throw new Error('BENCH_PLATFORM_ROOT runs one process from another checkout: not with --processes');
async function benchOn(topology: Topology, bus: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-bench-'));
  const platform = await topology.start(dataDir, {
    env: {
      // The access log would cost a JSON line per request. The separate processes need their ready lines (info) for
      // their URLs; the game-server's access log is at debug, the gateway's registrations are then logged.
      LOG_LEVEL: process.argv.includes('--processes') ? 'info' : 'warn',
      OTEL_SDK_DISABLED: 'true',
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      PLAYER_RATE_LIMIT_PER_SECOND: '1000000',
      PLAYER_RATE_LIMIT_BURST: '1000000',
      // The bench's own timings, not the crash tests' short ones.
      WALLET_TIMEOUT_MS: '10000',
      ROUND_RESOLVE_AFTER_MS: '60000',
    },
    nodeArgs: profileArgs,
    ...(platformRoot === undefined ? {} : { root: platformRoot }),
  });
  /** The platform's processes (the operator's wallet left out when it runs apart) and their CPU time so far. */
  const platformPids = () =>
    Object.entries(platform.pids())
      .filter(([app]) => topology === oneProcess || app !== 'operator-sandbox')
      .map(([, pid]) => pid);
  const platformCpuMs = (): number => {
    let sum = 0;
    for (const pid of platformPids()) sum += cpuMsOf(pid) ?? Number.NaN;
    return sum;
  };
  /** Every process's CPU time so far by app, the operator's wallet included: the per-process split of a phase. */
  const cpuByApp = (): Record<string, number> =>
    Object.fromEntries(Object.entries(platform.pids()).map(([app, pid]) => [app, cpuMsOf(pid) ?? Number.NaN]));
  const cpuSplit = (before: Record<string, number>, operations: number): string =>
    Object.entries(cpuByApp())
      .map(([app, ms]) => `${app} ${((ms - (before[app] ?? Number.NaN)) / operations).toFixed(2)}`)
      .join(', ');
  const mark = (before: string) => {
    for (const pid of platformPids()) censusMark(pid, before);
  };

  try {
    const { gatewayUrl, gameUrl, sandboxUrl } = platform;
    const operator = new OperatorClient(() => gatewayUrl, { ...platform.operator, timeZone: 'UTC' });
    const future = operator.wallClock(new Date(Date.now() + 86_400_000));
    const past = operator.wallClock(new Date(Date.now() - 86_400_000));

    const skipRegister = only === 'free';
    if (!skipRegister) {
      await measureRegister(gatewayUrl, platform.operator.token, future, WARMUP_S);
      await measureRegister(gatewayUrl, platform.operator.token, past, WARMUP_S);
    }
    if (!skipRegister) mark('start-up and warm-up');
    const registerCpuBefore = platformCpuMs();
    const register = skipRegister
      ? undefined
      : await measureRegister(gatewayUrl, platform.operator.token, future, DURATION_S);
    const registerCpuMs = platformCpuMs() - registerCpuBefore;
    if (register) mark(`${register.ok} registrations`);
    const validationCpuBefore = platformCpuMs();
    const validation = skipRegister
      ? undefined
      : await measureRegister(gatewayUrl, platform.operator.token, past, DURATION_S);
    const validationCpuMs = platformCpuMs() - validationCpuBefore;

    // Free spins: a bonus and a session per player, then every spin played and every win applied.
    const freeSessions = async (prefix: string): Promise<string[]> => {
      const tokens: string[] = [];
      for (let index = 0; index < PLAYERS; index++) {
        const playerId = `${prefix}_${index}`;
        await operator.registerFreeSpins({ playerId, spins: SPINS_PER_PLAYER, callAmount: 10_000 });
        tokens.push(await operator.launch(playerId));
      }
      return tokens;
    };
    const winsApplied = async (count: number) => {
      while ((await appliedWins(sandboxUrl, platform.operator.id)) < count)
        await new Promise((resolve) => setTimeout(resolve, 20));
    };
    // Warm-up, as the register phase has: the same spins by other players, unmeasured, so the figures are a
    // running platform's and not the JIT compiling its code (that costs about a millisecond per spin over the
    // first thousand spins here, whichever spins are measured).
    await playAll(gameUrl, await freeSessions('warmup_player'), {});
    await winsApplied(PLAYERS * SPINS_PER_PLAYER);
    const freeTokens = await freeSessions('spin_player');
    const winsBefore = await appliedWins(sandboxUrl, platform.operator.id);
    mark('what came before the free spins');
    const freeCpuBefore = platformCpuMs();
    const freeCpuByAppBefore = cpuByApp();
    const clientCpuBefore = process.cpuUsage();
    const freeStarted = performance.now();
    const freeLatencies = await playAll(gameUrl, freeTokens, {});
    const answeredMs = performance.now() - freeStarted;
    const total = PLAYERS * SPINS_PER_PLAYER;
    await winsApplied(winsBefore + total);
    const appliedMs = performance.now() - freeStarted;
    const freeCpuMs = platformCpuMs() - (freeCpuBefore ?? Number.NaN);
    const freeCpuSplit = cpuSplit(freeCpuByAppBefore, PLAYERS * SPINS_PER_PLAYER);
    const clientCpu = process.cpuUsage(clientCpuBefore);
    mark(`${total} free spins`);

    const demoSessions = async (prefix: string): Promise<string[]> => {
      const tokens: string[] = [];
      for (let index = 0; index < PLAYERS; index++) {
        const launched = await call('POST', `${gatewayUrl}/v1/game/launch`, {
          token: platform.operator.token,
          json: {
            playerId: `${prefix}_${index}`,
            providerId: 1,
            gameId: 101,
            language: 'en',
            returnUrl: 'https://casino.example/',
            isStreamer: false,
            demo: true,
          },
        });
        tokens.push(new URL(String(launched.body.data)).searchParams.get('token') ?? '');
      }
      return tokens;
    };
    // The baseline warms up the same way.
    await playAll(gameUrl, await demoSessions('warmup_demo_player'), { bet: 0.2 });
    const demoTokens = await demoSessions('demo_player');
    const demoCpuBefore = platformCpuMs();
    const demoStarted = performance.now();
    const demoLatencies = await playAll(gameUrl, demoTokens, { bet: 0.2 });
    const demoMs = performance.now() - demoStarted;
    const demoCpuMs = platformCpuMs() - (demoCpuBefore ?? Number.NaN);

    const line = (m: Measured) =>
      `${m.requestsPerSecond.toFixed(0).padStart(6)} req/s   p50 ${String(m.p50).padStart(4)} ms   p99 ${String(m.p99).padStart(4)} ms   (${m.ok} ok, ${m.refused} refused, ${m.errors} errors)`;
    const rate = (count: number, ms: number) => `${((count * 1_000) / ms).toFixed(0).padStart(6)} spins/s`;
    const spinLatency = (sorted: readonly number[]) =>
      `p50 ${percentile(sorted, 50).toFixed(0).padStart(4)} ms   p99 ${percentile(sorted, 99).toFixed(0).padStart(4)} ms`;
    console.log(
      `e2e bench: ${topology.name}${platformRoot === undefined ? '' : ` from ${platformRoot}`}, ${bus}, node ${process.version}`,
    );
    if (register && validation) {
      console.log(`register, autocannon ${CONNECTIONS} connections × ${DURATION_S} s:`);
      console.log(`  register, decided in the gateway (ADR 0011)        ${line(register)}`);
      console.log(`  baseline: same gateway, validation only (422)      ${line(validation)}`);
      console.log(
        `  ratio register / baseline                          req/s ${(register.requestsPerSecond / validation.requestsPerSecond).toFixed(3)}`,
      );
      console.log(
        `  platform CPU per request (user + system)           registration ${(registerCpuMs / register.ok).toFixed(2)} ms, validation only ${(validationCpuMs / Math.max(validation.refused, 1)).toFixed(2)} ms`,
      );
    }
    console.log(
      `free spins, ${PLAYERS} players × ${SPINS_PER_PLAYER} spins, each player one spin at a time, after as many to warm up:`,
    );
    console.log(
      `  free spins, win applied by the wallet              ${rate(total, appliedMs)}   (${total} wins applied in ${(appliedMs / 1_000).toFixed(1)} s; last answer at ${(answeredMs / 1_000).toFixed(1)} s)`,
    );
    console.log(
      `  free spins as answered by the player API           ${rate(total, answeredMs)}   ${spinLatency(freeLatencies)}`,
    );
    console.log(
      `  baseline: demo spins, same player API, no ledger   ${rate(total, demoMs)}   ${spinLatency(demoLatencies)}`,
    );
    console.log(
      `  ratio free (applied) / demo                        ${(total / appliedMs / (total / demoMs)).toFixed(3)}`,
    );
    const perSpin = (cpuMs: number) => `${(cpuMs / total).toFixed(2)} ms`;
    console.log(
      `  platform CPU per spin (user + system)              free ${perSpin(freeCpuMs)}, demo ${perSpin(demoCpuMs)}`,
    );
    // The figure to compare across machines: a free spin's CPU in demo spins of the same run.
    console.log(`  CPU ratio free / demo spin                         ${(freeCpuMs / demoCpuMs).toFixed(1)}`);
    if (Object.keys(platform.pids()).length > 1)
      console.log(`  CPU per free spin by process (ms)                  ${freeCpuSplit}`);
    console.log(
      `  the players' client (this process) per free spin   CPU ${perSpin((clientCpu.user + clientCpu.system) / 1_000)}`,
    );
  } finally {
    await platform.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `run` with a PostgreSQL schema of its own, dropped after. */
async function withSchema(postgres: PostgresForTests, run: (url: string) => Promise<void>): Promise<void> {
  const schema = await postgres.schema('e2e_bench');
  try {
    await run(schema.url);
  } finally {
    await schema.drop();
  }
}

await benchOn(embedded, 'embedded SQLite (synchronous=FULL)');
const postgres = embeddedOnly ? undefined : await postgresForTests();
if (postgres) {
  console.log('');
  await withSchema(postgres, (url) =>
    benchOn(oneProcessOnPostgres(url), `events in PostgreSQL at ${postgres.server}, embedded bus`),
  );
} else if (!embeddedOnly) console.log(postgresNotice('the e2e bench').trim());
if (kafkaBrokers && !embeddedOnly) {
  console.log('');
  await benchOn(
    oneProcessOnKafka(kafkaBrokers),
    `bus on Kafka at ${kafkaBrokers}, events in SQLite (synchronous=FULL)`,
  );
  if (postgres) {
    console.log('');
    await withSchema(postgres, (url) =>
      benchOn(
        oneProcessOnKafkaAndPostgres(kafkaBrokers, url),
        `bus on Kafka at ${kafkaBrokers}, events in PostgreSQL at ${postgres.server}`,
      ),
    );
  }
} else if (!embeddedOnly)
  console.log('e2e bench on Kafka NOT run: KAFKA_BROKERS is not set (npm run infra:kafka -- start prints it).');
await players.close();

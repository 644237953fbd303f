/**
 * The replica proof, with real processes: the operator sandbox and three replicas each
 * of gateway, bonus-ledger, wallet-dispatcher and game-server on one SQLite data dir; players of
 * two operators (the same player ids under both) play free and paid spins, some paid spins double
 * clicked onto two game-server replicas at once, while random replicas are SIGKILLed and restarted
 * with the same INSTANCE_ID. Then traffic stops, the cluster drains, and the proof checks the money
 * to the cent, that every round ended once, that no bonus went over its cap, that each win was
 * published at most 1 + the kills of its sender's replicas (counted on the bus log, before the
 * dispatcher's de-duplication), and that no double click had both its spins accepted with their
 * rounds open at once (two bets from one click). It prints its figures.
 *
 * `npm run test:replicas` is the long run (≥ 200 kills, REPLICAS_LONG=1); `npm run
 * test:replicas:short` (part of `npm test`) makes ≥ 30. `RUN_REPLICAS=1` selects this file.
 */
import { afterAll, expect, it, jest } from '@jest/globals';
import { CLUSTER_OPERATORS, startReplicaCluster, type ReplicaCluster } from './support/replica-cluster.js';
import { proveCluster, settle } from './support/replica-proof.js';
import { progressLine, runChaos, runTraffic, type TrafficFigures } from './support/replica-traffic.js';

const LONG = process.env['REPLICAS_LONG'] === '1';
const KILLS = LONG ? 210 : 32;
const MEAN_KILL_GAP_MS = LONG ? 1_600 : 1_500;
/** Per operator: 2 × 100 = 200 players in the long run. */
const PLAYERS_PER_OPERATOR = LONG ? 100 : 25;
/** Each player's pause between spins: the load stays what two shared cores carry with 13 processes restarting. */
const THINK_MS: [number, number] = LONG ? [1_000, 3_000] : [200, 700];
const SETTLE_MS = 60_000;
/** From the start: the chaos stops here even short of its kills (the test then fails on the count), so the run stays within its time. */
const CHAOS_BUDGET_MS = LONG ? 480_000 : 150_000;

jest.setTimeout(CHAOS_BUDGET_MS + SETTLE_MS + 50_000);

let cluster: ReplicaCluster | undefined;

afterAll(async () => {
  await cluster?.stop();
});

it(`reconciles to the cent after ${KILLS} SIGKILLs of random replicas, each win sent once per kill of its sender`, async () => {
  const began = Date.now();
  cluster = await startReplicaCluster();
  const startupMs = Date.now() - began;
  const running = cluster;

  let endTraffic = () => undefined as void;
  const stop = new Promise<void>((resolve) => {
    endTraffic = resolve;
  });
  const trafficStarted = Date.now();
  let live: TrafficFigures | undefined;
  const traffic = runTraffic(running, CLUSTER_OPERATORS, PLAYERS_PER_OPERATOR, stop, {
    thinkMs: THINK_MS,
    onFigures: (figures) => {
      live = figures;
    },
  });
  const progress = setInterval(() => {
    if (live) process.stderr.write(`${progressLine(running, live)}\n`);
  }, 15_000);
  try {
    // Let every player register and launch before the first kill.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await runChaos(running, KILLS, MEAN_KILL_GAP_MS, { deadline: began + CHAOS_BUDGET_MS });
  } finally {
    endTraffic();
    clearInterval(progress);
  }
  const played = await traffic;
  const trafficMs = Date.now() - trafficStarted;

  const drained = await settle(running, SETTLE_MS);
  const report = await proveCluster(running, played, {
    trafficMs,
    settleMs: drained.ms,
    settled: drained.settled,
    lastDrainState: drained.last,
  });
  const figures = { mode: LONG ? 'long' : 'short', startupMs, totalMs: Date.now() - began, ...report.figures };
  const verdicts = Object.entries(report.assertions).map(
    ([assertion, problems]) =>
      `${problems.length === 0 ? 'HELD  ' : 'FAILED'} ${assertion}${problems.length ? ` (${problems.length}):\n    ${problems.slice(0, 8).join('\n    ')}` : ''}`,
  );
  process.stdout.write(`\nreplica proof figures:\n${JSON.stringify(figures, null, 2)}\n${verdicts.join('\n')}\n`);

  expect(
    Object.fromEntries(Object.entries(report.assertions).map(([name, problems]) => [name, problems.slice(0, 8)])),
  ).toEqual(Object.fromEntries(Object.keys(report.assertions).map((name) => [name, []])));
  expect(running.kills.length).toBeGreaterThanOrEqual(KILLS);
});

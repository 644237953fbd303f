/**
 * The replica proof, with real processes: the operator sandbox and three replicas each
 * of gateway, bonus-ledger, wallet-dispatcher and game-server on one SQLite data dir; players of
 * two operators (the same player ids under both) play free and paid spins, some paid spins double
 * clicked onto two game-server replicas at once, while random replicas are SIGKILLed and restarted
 * with the same INSTANCE_ID. Then traffic stops, the cluster drains, and the proof checks the money
 * to the cent, that every round ended once, that no bonus went over its cap, that each win was
 * published at most 1 + the kills and logged retries of its sender's replicas (counted on the bus
 * log, before the dispatcher's de-duplication), and that no double click had both its spins
 * accepted with their rounds open at once (two bets from one click). It prints its figures.
 *
 * `npm run test:replicas` is the long run (≥ 200 kills, REPLICAS_LONG=1); `npm run
 * test:replicas:short` (part of `npm test`) makes ≥ 30. `RUN_REPLICAS=1` selects this file.
 *
 * `REPLICAS_ENGINES=production` runs the same proof on the production engines: every replica on
 * Kafka (`BUS_URL=kafka://` + KAFKA_BROKERS) and PostgreSQL (`EVENT_STORE_URL`, a schema of its own,
 * dropped after, reached through PgBouncer in transaction mode with LISTEN to the server, as the
 * production overlay's pooler), the sandbox still on its SQLite file. When KAFKA_BROKERS names a cluster of `npm
 * run infra:kafka`, its first broker is SIGKILLed 30 s into the chaos and restarted 8 s later: with
 * one broker, a total outage of the bus; the traffic goes on until 30 s after it serves again.
 * Spins refused by it (a game-server's 503 INTERNAL whose logged error is the broker refusing the
 * connection) and replicas whose start failed for it are explained; the money, rounds, caps, sends
 * and double clicks are checked as on SQLite. Fewer players there, and the short run fewer kills:
 * see SHAPE. `npm run test:replicas:production:short` (part of `npm test`, after the Kafka fault
 * cases) and `npm run test:replicas:production`; without KAFKA_BROKERS or a PostgreSQL server it
 * prints that it did not run.
 */
import { afterAll, expect, it, jest } from '@jest/globals';
import { findPgBouncer, postgresForTests, postgresNotice, startPgBouncer } from '@reelstream/testing';
import { CLUSTER_OPERATORS, startReplicaCluster, type ReplicaCluster } from './support/replica-cluster.js';
import type { ReplicaEngines } from './support/replica-engines.js';
import { OUTAGE_GRACE_MS, brokerOutage, infraKafkaNode, type BrokerOutage } from './support/kafka-outage.js';
import { proveCluster, settle } from './support/replica-proof.js';
import { progressLine, runChaos, runTraffic, type TrafficFigures } from './support/replica-traffic.js';

const LONG = process.env['REPLICAS_LONG'] === '1';
/** `REPLICAS_ENGINES=production`: the replicas on Kafka (KAFKA_BROKERS) and PostgreSQL instead of the SQLite data dir. */
const PRODUCTION = process.env['REPLICAS_ENGINES'] === 'production';
/**
 * On Kafka and PostgreSQL a restarted replica is ready in 1 to 5 s on a quiet 2-core machine (its
 * consumer groups rebalance first), and each kill stops its groups' consumption while they
 * rebalance; the chaos kills only ready replicas, never the last of a service. The production
 * engines get their kills further apart and fewer players, so the 13 processes, the broker and
 * PostgreSQL share the two cores with the traffic; the short run makes 8 kills, within a CI run.
 */
const SHAPE = PRODUCTION
  ? LONG
    ? { kills: 210, meanGapMs: 2_500, players: 40, thinkMs: [1_000, 3_000], chaosMs: 900_000, settleMs: 120_000 }
    : { kills: 8, meanGapMs: 4_000, players: 10, thinkMs: [500, 1_500], chaosMs: 180_000, settleMs: 90_000 }
  : LONG
    ? { kills: 210, meanGapMs: 1_600, players: 100, thinkMs: [1_000, 3_000], chaosMs: 480_000, settleMs: 60_000 }
    : { kills: 32, meanGapMs: 1_500, players: 25, thinkMs: [200, 700], chaosMs: 150_000, settleMs: 60_000 };
const KILLS = SHAPE.kills;
const MEAN_KILL_GAP_MS = SHAPE.meanGapMs;
/** Per operator: 2 × 100 = 200 players in the long run. */
const PLAYERS_PER_OPERATOR = SHAPE.players;
/** Each player's pause between spins: the load stays what two shared cores carry with 13 processes restarting. */
const THINK_MS = SHAPE.thinkMs as [number, number];
const SETTLE_MS = SHAPE.settleMs;
/** From the start: the chaos stops here even short of its kills (the test then fails on the count), so the run stays within its time. */
const CHAOS_BUDGET_MS = SHAPE.chaosMs;

/** On Kafka: the one broker of `npm run infra:kafka` this far into the chaos is SIGKILLed, and restarted this much later. */
const BROKER_KILL_AFTER_MS = 30_000;
const BROKER_DOWN_MS = 8_000;
const TRAFFIC_AFTER_OUTAGE_MS = 30_000;

jest.setTimeout(CHAOS_BUDGET_MS + SETTLE_MS + 50_000 + (PRODUCTION ? 60_000 : 0));

/** The production engines, when selected and there; else a notice and the case is not run. */
async function productionEngines(): Promise<{ engines: ReplicaEngines; drop: () => Promise<void> } | undefined> {
  const kafkaBrokers = process.env['KAFKA_BROKERS'];
  const postgres = await postgresForTests();
  if (!kafkaBrokers)
    process.stdout.write(
      '\n[replicas] NOT RUN on the production engines: KAFKA_BROKERS is not set (no Kafka here). The replica proof ran on no Kafka and no PostgreSQL.\n\n',
    );
  if (!postgres) process.stdout.write(`\n${postgresNotice('the replica proof on Kafka and PostgreSQL')}\n`);
  if (!kafkaBrokers || !postgres) return undefined;
  const schema = await postgres.schema('replicas');
  const pgbouncer = findPgBouncer();
  if (!pgbouncer) {
    if (process.env['CI'] === 'true')
      throw new Error('pgbouncer is not installed: .ci/run installs Debian\u2019s pgbouncer');
    process.stdout.write('[replicas] the replicas reach PostgreSQL directly: pgbouncer is not installed.\n');
    return { engines: { kafkaBrokers, eventStoreUrl: schema.url }, drop: schema.drop };
  }
  // As in production: the replicas' pools through PgBouncer in transaction mode, LISTEN to the server.
  const pooler = await startPgBouncer(pgbouncer, process.env['PG_URL'] ?? postgres.server, { poolSize: 20 });
  const pooled = new URL(pooler.through(schema.url));
  pooled.searchParams.set('listen', new URL(schema.url).host);
  return {
    engines: { kafkaBrokers, eventStoreUrl: schema.url, appsEventStoreUrl: pooled.toString() },
    drop: async () => {
      await pooler.stop();
      await schema.drop();
    },
  };
}

const production = PRODUCTION ? await productionEngines() : undefined;
/** The infra node to kill, when KAFKA_BROKERS names a cluster of `npm run infra:kafka`. */
const brokerNode = production ? await infraKafkaNode(production.engines.kafkaBrokers) : undefined;
if (production && !brokerNode)
  process.stdout.write(
    '[replicas] no Kafka broker killed: KAFKA_BROKERS does not name a cluster of `npm run infra:kafka` (KAFKA_INFRA_RUN_DIR, KAFKA_INFRA_PORT).\n',
  );

let cluster: ReplicaCluster | undefined;

function brokerDownNow(running: ReplicaCluster): boolean {
  const down = running.brokerDown;
  const at = Date.now() - running.startedAt;
  return (
    down !== undefined && at >= down.from && at <= (down.servingAgain ?? Number.POSITIVE_INFINITY) + OUTAGE_GRACE_MS
  );
}

afterAll(async () => {
  await cluster?.stop();
  await production?.drop();
});

const engineName = production
  ? ` on Kafka and PostgreSQL${production.engines.appsEventStoreUrl ? ' behind PgBouncer' : ''}`
  : '';
(PRODUCTION && !production ? it.skip : it)(
  `reconciles to the cent after ${KILLS} SIGKILLs of random replicas${engineName}${brokerNode ? ' and one of a Kafka broker' : ''}, each win sent again only after a kill or a logged retry of its sender`,
  async () => {
    const began = Date.now();
    cluster = await startReplicaCluster(production ? { engines: production.engines } : {});
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
      // From the broker's kill until OUTAGE_GRACE_MS after it answers again.
      ...(brokerNode ? { asideWhile: () => brokerDownNow(running) } : {}),
    });
    const progress = setInterval(() => {
      if (live) process.stderr.write(`${progressLine(running, live)}\n`);
    }, 15_000);
    let outage: Promise<BrokerOutage> | undefined;
    try {
      // Let every player register and launch before the first kill.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      if (brokerNode && production)
        outage = brokerOutage(running, production.engines.kafkaBrokers, brokerNode, {
          afterMs: BROKER_KILL_AFTER_MS,
          downMs: BROKER_DOWN_MS,
        });
      await runChaos(running, KILLS, MEAN_KILL_GAP_MS, { deadline: began + CHAOS_BUDGET_MS });
      // The traffic goes on through the broker's outage and a while after it serves again (the paid spins, which
      // come after the free ones, meet the recovered bus), however soon the kills were made.
      if (outage) {
        await outage;
        await new Promise((resolve) => setTimeout(resolve, TRAFFIC_AFTER_OUTAGE_MS));
      }
    } finally {
      endTraffic();
      clearInterval(progress);
    }
    const played = await traffic;
    const broker = await outage;
    const trafficMs = Date.now() - trafficStarted;

    const drained = await settle(running, SETTLE_MS);
    const report = await proveCluster(running, played, {
      trafficMs,
      settleMs: drained.ms,
      settled: drained.settled,
      lastDrainState: drained.last,
    });
    const figures = {
      mode: LONG ? 'long' : 'short',
      engines: production
        ? `Kafka ${production.engines.kafkaBrokers}, PostgreSQL${production.engines.appsEventStoreUrl ? ' behind PgBouncer' : ''}`
        : 'SQLite',
      startupMs,
      totalMs: Date.now() - began,
      ...(broker ? { brokerOutage: broker } : {}),
      ...report.figures,
    };
    const verdicts = Object.entries(report.assertions).map(
      ([assertion, problems]) =>
        `${problems.length === 0 ? 'HELD  ' : 'FAILED'} ${assertion}${problems.length ? ` (${problems.length}):\n    ${problems.slice(0, 8).join('\n    ')}` : ''}`,
    );
    process.stdout.write(`\nreplica proof figures:\n${JSON.stringify(figures, null, 2)}\n${verdicts.join('\n')}\n`);

    expect(
      Object.fromEntries(Object.entries(report.assertions).map(([name, problems]) => [name, problems.slice(0, 8)])),
    ).toEqual(Object.fromEntries(Object.keys(report.assertions).map((name) => [name, []])));
    expect(running.kills.length).toBeGreaterThanOrEqual(KILLS);
    if (brokerNode) expect(broker?.servingAgainAtMs).toBeDefined();
  },
);

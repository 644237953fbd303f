/**
 * The replica proof's cluster: the operator sandbox plus three replicas each of
 * gateway, bonus-ledger, wallet-dispatcher and game-server, every one a real process from its
 * built entry, all on one SQLite data dir, or on the production engines when given: every replica
 * then has BUS_URL=kafka://… and EVENT_STORE_URL=postgres://… (the sandbox keeps its own SQLite file
 * in the data dir either way). Each replica has its own INSTANCE_ID and WORKER_ID
 * (docs/adr/0003-process-identity.md: the StatefulSet ranges) and a fixed port, so a replica
 * killed and started again is the same pod to the others and to the load balancer.
 * `kill()` SIGKILLs one replica, records it and starts it again at once with the same identity.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '@reelstream/testing';
import { join } from 'node:path';
import { buildApps } from '../../../../scripts/build-apps.js';
import { AppProcess, REPOSITORY_ROOT } from './app-process.js';
import type { OperatorAccount } from './clients.js';
import { OUTAGE_GRACE_MS } from './kafka-outage.js';
import { openClusterLog, type ClusterLog, type ReplicaEngines } from './replica-engines.js';

const REPLICATED_SERVICES = ['gateway', 'bonus-ledger', 'wallet-dispatcher', 'game-server'] as const;
export type ReplicatedService = (typeof REPLICATED_SERVICES)[number];

/** First worker id of each app's StatefulSet range (ADR 0039). */
const WORKER_ID_BASE: Record<ReplicatedService, number> = {
  gateway: 32,
  'game-server': 280,
  'bonus-ledger': 528,
  'wallet-dispatcher': 776,
};

/** The variable each app listens on (the ledger and the dispatcher serve only their probes). */
const PORT_VARIABLE: Record<ReplicatedService, string> = {
  gateway: 'GATEWAY_PORT',
  'game-server': 'GAME_PORT',
  'bonus-ledger': 'HEALTH_PORT',
  'wallet-dispatcher': 'HEALTH_PORT',
};

/** Two operators whose players have the same ids: a player id means nothing without its operator. */
export const CLUSTER_OPERATORS: readonly OperatorAccount[] = [
  { id: 'casino_north', token: 'north-api-token-0123456789abcdef', currency: 'EUR', timeZone: 'Europe/Berlin' },
  { id: 'casino_south', token: 'south-api-token-0123456789abcdef', currency: 'EUR', timeZone: 'Asia/Seoul' },
];

/** Short timeouts, so the rounds a kill left open are resolved within seconds of the end of traffic. */
const COMMON_ENV = {
  OTEL_SDK_DISABLED: 'true',
  LOG_LEVEL: 'info',
  OPERATORS_FILE: '',
  WALLET_TIMEOUT_MS: '3500',
  ROUND_RESOLVE_AFTER_MS: '4000',
  // As production (k8s/overlays/production/config.patch.yaml), the outbox and the relay split into shards that
  // the replicas share and hand over as they are killed (docs/adr/0045-outbox-and-relay-split-into-shards.md).
  ROUND_OUTBOX_SHARDS: '4',
  BONUS_RELAY_SHARDS: '4',
};

function operatorsJson(sandboxUrl: string): string {
  return JSON.stringify(
    CLUSTER_OPERATORS.map((operator) => ({
      id: operator.id,
      name: `Replica proof ${operator.id}`,
      apiToken: operator.token,
      callbackUrl: `${sandboxUrl}/wallet/${operator.id}`,
      signingSecret: `${operator.id}-signing-secret-0123456789`,
      currency: operator.currency,
      timeZone: operator.timeZone,
    })),
  );
}

export interface Kill {
  /** Milliseconds since the cluster started. */
  readonly at: number;
  readonly service: ReplicatedService;
  readonly instanceId: string;
  /** How long its restart took to log `ready` (undefined while still starting, or when it never did). */
  readyAfterMs?: number;
}

export class Replica {
  process: AppProcess;
  /** Whether the current process logged `ready` (false right after a kill). */
  ready = false;
  starts = 0;

  constructor(
    readonly service: ReplicatedService,
    readonly index: number,
    readonly port: number,
    private readonly entry: string,
    private readonly env: Record<string, string>,
    /**
     * Why a process that exited by itself before it was ready may be started again, as Kubernetes
     * restarts a container whose start failed; undefined: it may not (an unexpected exit).
     */
    private readonly refusedStart: (process: AppProcess) => string | undefined = () => undefined,
  ) {
    this.process = this.spawn();
  }

  get instanceId(): string {
    return `${this.service}-r${this.index}`;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** A new process with the same identity. */
  private spawn(): AppProcess {
    this.starts += 1;
    this.ready = false;
    const process = new AppProcess(this.instanceId, this.entry, {
      ...this.env,
      INSTANCE_ID: this.instanceId,
      WORKER_ID: String(WORKER_ID_BASE[this.service] + this.index),
      [PORT_VARIABLE[this.service]]: String(this.port),
    });
    this.processes.push(process);
    void process.exited.then(({ code, signal }) => {
      if (this.killedByUs.has(process) || this.stopping) return;
      const reason = this.readyProcesses.has(process) ? undefined : this.refusedStart(process);
      if (reason === undefined) {
        this.unexpectedExits.push(
          `${this.instanceId} exited by itself (code ${code}, signal ${signal}): ${process.diagnostics()}`,
        );
        return;
      }
      this.refusedStarts.push(`${this.instanceId}: ${reason}`);
      // A second later, as a kubelet would (its back-off starts at 10 s; the proof's outage is short).
      setTimeout(() => {
        if (this.stopping || this.process !== process) return;
        this.process = this.spawn();
        void this.awaitReady().catch(() => undefined);
      }, 1_000);
    });
    return process;
  }

  /** Every process this replica ran, the current one last (their log lines, for the proof). */
  readonly processes: AppProcess[] = [];
  /** Exits nobody asked for: a replica that crashed on its own (at start, or under load). */
  readonly unexpectedExits: string[] = [];
  /** Starts that failed for a reason `refusedStart` explained, each followed by a new start. */
  readonly refusedStarts: string[] = [];
  private readonly readyProcesses = new WeakSet<AppProcess>();
  stopping = false;
  private readonly killedByUs = new WeakSet<AppProcess>();

  async awaitReady(timeoutMs = 60_000): Promise<void> {
    const current = this.process;
    await current.ready(timeoutMs);
    this.readyProcesses.add(current);
    if (current === this.process) this.ready = true;
  }

  /** SIGKILL, then the same replica again at once; resolves once the kill landed (not when it is ready again). */
  async killAndRestart(): Promise<AppProcess> {
    this.ready = false;
    this.killedByUs.add(this.process);
    await this.process.kill('SIGKILL');
    this.process = this.spawn();
    return this.process;
  }
}

export interface ReplicaCluster {
  readonly dataDir: string;
  /** The production engines the replicas run on; undefined: the SQLite bus and event store of `dataDir`. */
  readonly engines: ReplicaEngines | undefined;
  /** What the proof reads of the bus and the event log, on those engines. */
  readonly log: ClusterLog;
  readonly sandboxUrl: string;
  readonly replicas: readonly Replica[];
  readonly kills: readonly Kill[];
  readonly startedAt: number;
  /**
   * The Kafka broker outage the test caused (milliseconds since `startedAt`): while it lasts, and
   * for 15 s after the broker answers again, a replica whose start failed because it could not reach
   * Kafka is started again instead of counting as an unexpected exit.
   */
  brokerDown: { from: number; servingAgain?: number } | undefined;
  of(service: ReplicatedService): Replica[];
  /** SIGKILLs `replica`, records it and restarts it with the same INSTANCE_ID and port. */
  kill(replica: Replica): Promise<Kill>;
  /** Until every replica's current process is ready. */
  allReady(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Connections per replica on PostgreSQL besides its one `LISTEN` connection. Twelve replicas at the adapter's default
 * of 10 hold up to 132, past the server's `max_connections` of 100: under the long run's load a restarted replica was
 * refused at start ("sorry, too many clients already"). At 4 they hold at most 60, beside the proof's own readers.
 */
const REPLICA_POOL_SIZE = 4;

function withPoolSize(eventStoreUrl: string, poolSize: number): string {
  const url = new URL(eventStoreUrl);
  url.searchParams.set('poolSize', String(poolSize));
  return url.toString();
}

export async function startReplicaCluster(
  options: { replicas?: number; engines?: ReplicaEngines } = {},
): Promise<ReplicaCluster> {
  const perService = options.replicas ?? 3;
  const { engines } = options;
  mkdirSync(join(REPOSITORY_ROOT, 'tmp'), { recursive: true });
  // Inside the repository, so the bundles find node_modules as dist/ does.
  const buildDir = mkdtempSync(join(REPOSITORY_ROOT, 'tmp', 'replicas-build-'));
  const dataDir = mkdtempSync(join(REPOSITORY_ROOT, 'tmp', 'replicas-data-'));
  const built = await buildApps([...REPLICATED_SERVICES, 'operator-sandbox'], { outDir: buildDir });
  const entry = (app: string) => {
    const found = built.find((candidate) => candidate.app === app);
    if (!found) throw new Error(`${app} was not built`);
    return found.entry;
  };

  const log = openClusterLog(dataDir, engines);
  await log.bus.markStart();
  const sandbox = new AppProcess('operator-sandbox', entry('operator-sandbox'), {
    ...COMMON_ENV,
    DATA_DIR: dataDir,
    SANDBOX_PORT: '0',
    SANDBOX_HOST: '127.0.0.1',
    // The sandbox reads the operators' secrets; the callback URLs are its own, known once it listens.
    OPERATORS_JSON: operatorsJson('http://127.0.0.1:9'),
  });
  const replicas: Replica[] = [];
  const cleanUp = async () => {
    for (const replica of replicas) replica.stopping = true;
    await Promise.all([...replicas.map((replica) => replica.process.kill('SIGKILL')), sandbox.kill('SIGKILL')]);
    rmSync(buildDir, { recursive: true, force: true });
    await log.close();
  };
  try {
    const sandboxReady = await sandbox.ready();
    const sandboxUrl = String(sandboxReady['url']);
    const ports = new Map<string, number>();
    for (const service of REPLICATED_SERVICES)
      for (let index = 0; index < perService; index++)
        ports.set(`${service}-${index}`, await freePort(new Set(ports.values())));
    const env = {
      ...COMMON_ENV,
      DATA_DIR: dataDir,
      OPERATORS_JSON: operatorsJson(sandboxUrl),
      // Launch URLs name the first game-server; the players' load balancer spreads them over all.
      LAUNCH_BASE_URL: `http://127.0.0.1:${ports.get('game-server-0')}`,
      // As the platform e2e suite's topology on these engines: a killed replica's partitions move on within seconds.
      ...(engines
        ? {
            BUS_URL: `kafka://${engines.kafkaBrokers}`,
            KAFKA_SESSION_TIMEOUT_MS: '3000',
            EVENT_STORE_URL: withPoolSize(engines.appsEventStoreUrl ?? engines.eventStoreUrl, REPLICA_POOL_SIZE),
          }
        : {}),
    };
    let startedAt = Date.now();
    let brokerDown: ReplicaCluster['brokerDown'];
    const refusedStart = (process: AppProcess): string | undefined => {
      const at = Date.now() - startedAt;
      const during =
        brokerDown && at >= brokerDown.from && at <= (brokerDown.servingAgain ?? Infinity) + OUTAGE_GRACE_MS;
      // The forms the apps give when the broker refuses or drops the connection as they open the bus
      // (kafkajs's error as it is, or as the adapter's KafkaUnavailableError once it wrapped it), and
      // kafkajs's own failure on the empty metadata of a broker still taking its partitions' leadership back.
      const diagnostics = process.diagnostics();
      const refusal =
        /did not start: (Error: cannot reach Kafka at [^\n]*|(KafkaUnavailableError: Kafka: |(KafkaJSNonRetriableError\s+Caused by: )?KafkaJSConnectionError: )Connection error: (connect ECONNREFUSED \S+|read ECONNRESET))/.exec(
          diagnostics,
        ) ??
        (diagnostics.includes('This server is not the leader for that topic-partition')
          ? /did not start: TypeError: Cannot read properties of null \(reading 'topicMetadata'\)/.exec(diagnostics)
          : null);
      return engines && during && refusal
        ? `+${(at / 1_000).toFixed(1)}s, while the Kafka broker was down: ${refusal[0]}`
        : undefined;
    };
    // The back end first (the gateway's readiness waits on the ledger), then the gateways.
    for (const service of ['bonus-ledger', 'wallet-dispatcher', 'game-server', 'gateway'] as const) {
      const started = Array.from(
        { length: perService },
        (_, index) =>
          new Replica(service, index, ports.get(`${service}-${index}`) ?? 0, entry(service), env, refusedStart),
      );
      replicas.push(...started);
      await Promise.all(started.map((replica) => replica.awaitReady(120_000)));
    }
    const kills: Kill[] = [];
    startedAt = Date.now();
    return {
      get brokerDown() {
        return brokerDown;
      },
      set brokerDown(value) {
        brokerDown = value;
      },
      dataDir,
      engines,
      log,
      sandboxUrl,
      replicas,
      kills,
      startedAt,
      of: (service) => replicas.filter((replica) => replica.service === service),
      async kill(replica) {
        const kill: Kill = { at: Date.now() - startedAt, service: replica.service, instanceId: replica.instanceId };
        kills.push(kill);
        const restarted = await replica.killAndRestart();
        const since = Date.now();
        replica.awaitReady(120_000).then(
          () => {
            if (replica.process === restarted) kill.readyAfterMs = Date.now() - since;
          },
          () => undefined, // killed again while starting, or it failed: allReady reports the latter
        );
        return kill;
      },
      async allReady(timeoutMs = 120_000) {
        await Promise.all(
          replicas.map(async (replica) => {
            if (!replica.process.running)
              throw new Error(`${replica.instanceId} is down: ${replica.process.diagnostics()}`);
            await replica.awaitReady(timeoutMs);
          }),
        );
      },
      async stop() {
        await cleanUp();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await cleanUp();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

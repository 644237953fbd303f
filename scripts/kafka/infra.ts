/**
 * `npm run infra:kafka -- start|stop|status|pause|resume|kill|restart [--brokers 1|3] [--node N] [--json]`: a real Apache Kafka (KRaft,
 * every node both broker and controller) on 127.0.0.1, without Docker. The broker's jars come from
 * Maven Central (scripts/kafka/pom.xml) into a cache outside git, `~/.cache/reelstream/kafka`
 * (`REELSTREAM_KAFKA_CACHE` moves it); every start formats fresh log directories under
 * `<cache>/run` (`KAFKA_INFRA_RUN_DIR` moves it: a second cluster beside the first, with its own
 * `KAFKA_INFRA_PORT`), so a run never sees the topics of the last one.
 *
 * Node N (1-based) listens on PLAINTEXT 127.0.0.1:(base + 10·(N-1)), its controller on +1 and a
 * SASL_PLAINTEXT listener (SCRAM-SHA-512, user `reelstream`) on +2; base is `KAFKA_INFRA_PORT`,
 * default 39092. `start` waits until every node is in the cluster and a topic with one replica per
 * node gets its leaders, then prints `KAFKA_BROKERS=…`; `stop` sends SIGTERM, then SIGKILL to a node
 * still running after 20 s; `pause`/`resume` send SIGSTOP/SIGCONT to one node or all; `kill --node N`
 * sends SIGKILL to one node and `restart --node N` starts it again on its data, without formatting.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';

const KAFKA_VERSION = '4.1.1';
const POM = resolve(import.meta.dirname, 'pom.xml');
export const SCRAM_USER = 'reelstream';
export const SCRAM_PASSWORD = 'reelstream-local-only';
const READY_TIMEOUT_MS = 180_000;
const STOP_GRACE_MS = 20_000;

const cacheDir = () => process.env['REELSTREAM_KAFKA_CACHE'] ?? join(homedir(), '.cache', 'reelstream', 'kafka');
const libsDir = () => join(cacheDir(), KAFKA_VERSION, 'libs');
const runDir = () => process.env['KAFKA_INFRA_RUN_DIR'] ?? join(cacheDir(), 'run');
const stateFile = () => join(runDir(), 'state.json');

export interface KafkaNode {
  nodeId: number;
  pid: number;
  plaintext: string;
  sasl: string;
  controller: string;
  logFile: string;
}

export interface KafkaCluster {
  version: string;
  nodes: KafkaNode[];
  /** `KAFKA_BROKERS`: every node's PLAINTEXT listener. */
  brokers: string;
  /** The SASL_PLAINTEXT (SCRAM-SHA-512) listeners. */
  saslBrokers: string;
  scram: { mechanism: 'scram-sha-512'; username: string; password: string };
}

const log = (line: string) => process.stderr.write(`infra:kafka: ${line}\n`);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The cluster `start` left running, or undefined when none (a state file whose nodes all died is removed). */
export function readCluster(): KafkaCluster | undefined {
  if (!existsSync(stateFile())) return undefined;
  const cluster = JSON.parse(readFileSync(stateFile(), 'utf8')) as KafkaCluster;
  return cluster.nodes.some((node) => alive(node.pid)) ? cluster : undefined;
}

function javaWorks(): boolean {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.status !== 0) return false;
  const version = /version "(\d+)/.exec(probe.stderr)?.[1];
  return version !== undefined && Number(version) >= 17;
}

/** The broker's jars, fetched with Maven on first use. */
function fetchJars(): string {
  const libs = libsDir();
  if (existsSync(libs) && readdirSync(libs).some((name) => name.startsWith('kafka_2.13-'))) return libs;
  log(`fetching Apache Kafka ${KAFKA_VERSION} with Maven into ${libs}`);
  const fetched = spawnSync(
    'mvn',
    [
      '-q',
      '-B',
      '-f',
      POM,
      `-Dkafka.version=${KAFKA_VERSION}`,
      'dependency:copy-dependencies',
      `-DoutputDirectory=${libs}`,
      '-DincludeScope=runtime',
    ],
    // Maven's output goes to stderr: callers read this script's stdout (KAFKA_BROKERS=…, --json), and
    // even `-q -B` prints escape codes there while it fetches.
    { stdio: ['ignore', 2, 'inherit'] },
  );
  if (fetched.status !== 0) {
    rmSync(libs, { recursive: true, force: true });
    throw new Error(`mvn dependency:copy-dependencies failed (exit ${fetched.status ?? fetched.signal})`);
  }
  return libs;
}

function ports(nodeId: number) {
  const base = Number(process.env['KAFKA_INFRA_PORT'] ?? 39092) + 10 * (nodeId - 1);
  return { plaintext: base, controller: base + 1, sasl: base + 2 };
}

function serverProperties(nodeId: number, count: number, logDir: string): string {
  const own = ports(nodeId);
  const voters = Array.from({ length: count }, (_, index) => `${index + 1}@127.0.0.1:${ports(index + 1).controller}`);
  const replicas = Math.min(3, count);
  return [
    'process.roles=broker,controller',
    `node.id=${nodeId}`,
    `controller.quorum.voters=${voters.join(',')}`,
    'controller.listener.names=CONTROLLER',
    `listeners=PLAINTEXT://127.0.0.1:${own.plaintext},CONTROLLER://127.0.0.1:${own.controller},SASL_PLAINTEXT://127.0.0.1:${own.sasl}`,
    // 127.0.0.1, not localhost: Node may resolve localhost to ::1, where nothing listens.
    `advertised.listeners=PLAINTEXT://127.0.0.1:${own.plaintext},SASL_PLAINTEXT://127.0.0.1:${own.sasl}`,
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT',
    'inter.broker.listener.name=PLAINTEXT',
    'sasl.enabled.mechanisms=SCRAM-SHA-512',
    'listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;',
    `log.dirs=${logDir}`,
    `offsets.topic.replication.factor=${replicas}`,
    'offsets.topic.num.partitions=8',
    `transaction.state.log.replication.factor=${replicas}`,
    `transaction.state.log.min.isr=${Math.min(2, replicas)}`,
    'transaction.state.log.num.partitions=4',
    `share.coordinator.state.topic.replication.factor=${replicas}`,
    `share.coordinator.state.topic.min.isr=${Math.min(2, replicas)}`,
    `default.replication.factor=${replicas}`,
    `min.insync.replicas=${Math.min(2, replicas)}`,
    'group.initial.rebalance.delay.ms=0',
    // The tests use session timeouts down to 1 s (the broker's default floor is 6 s).
    'group.min.session.timeout.ms=1000',
    // Production creates its topics with `kafka:topics create`; the tests let the bus create them.
    'auto.create.topics.enable=false',
    // Two cores shared with the tests: few threads, small segments.
    'num.network.threads=2',
    'num.io.threads=2',
    'background.threads=2',
    'num.recovery.threads.per.data.dir=1',
    'num.replica.fetchers=1',
    'log.cleaner.threads=1',
    'log.segment.bytes=16777216',
    '',
  ].join('\n');
}

const LOG4J2 = `
Configuration:
  Appenders:
    Console:
      name: STDOUT
      PatternLayout:
        pattern: "[%d] %p %m (%c)%n"
  Loggers:
    Root:
      level: WARN
      AppenderRef:
        - ref: STDOUT
    Logger:
      - name: kafka.server.KafkaRaftServer
        level: INFO
`;

function java(libs: string, args: string[]): string[] {
  return [
    '-Xms128m',
    `-Xmx${process.env['KAFKA_INFRA_HEAP'] ?? '512m'}`,
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-Djava.awt.headless=true',
    `-Dlog4j2.configurationFile=${join(runDir(), 'log4j2.yaml')}`,
    '-cp',
    `${libs}/*`,
    ...args,
  ];
}

/**
 * A KRaft cluster id: 16 random bytes, base64url without padding (what `kafka-storage.sh random-uuid` prints). Like
 * Kafka's own, never one that starts with '-': `kafka-storage format --cluster-id -…` takes it for an option and fails.
 */
function clusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

async function waitUntilServing(cluster: KafkaCluster): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const count = cluster.nodes.length;
  let lastError = 'no answer yet';
  while (Date.now() < deadline) {
    const dead = cluster.nodes.filter((node) => !alive(node.pid));
    if (dead.length > 0)
      throw new Error(`node ${dead.map((node) => node.nodeId).join(', ')} exited; see ${dead[0]?.logFile}`);
    for (const sasl of [false, true]) {
      const kafka = new Kafka({
        clientId: 'infra-kafka-probe',
        brokers: (sasl ? cluster.saslBrokers : cluster.brokers).split(','),
        logLevel: logLevel.NOTHING,
        connectionTimeout: 2_000,
        requestTimeout: 10_000,
        retry: { retries: 0 },
        ...(sasl ? { sasl: cluster.scram } : {}),
      });
      const admin = kafka.admin();
      try {
        await admin.connect();
        const { brokers } = await admin.describeCluster();
        if (brokers.length < count) throw new Error(`${brokers.length} of ${count} nodes in the cluster`);
        if (!sasl) {
          const topic = `infra-probe-${Date.now()}`;
          await admin.createTopics({
            waitForLeaders: true,
            topics: [{ topic, numPartitions: count, replicationFactor: count }],
          });
          await admin.deleteTopics({ topics: [topic] });
        }
      } catch (error) {
        lastError = `${sasl ? 'SASL' : 'PLAINTEXT'}: ${error instanceof Error ? error.message : String(error)}`;
        await admin.disconnect().catch(() => undefined);
        await new Promise((done) => setTimeout(done, 1_000));
        break;
      }
      await admin.disconnect();
      if (sasl) return;
    }
  }
  throw new Error(`Kafka did not serve within ${READY_TIMEOUT_MS / 1000} s (${lastError})`);
}

async function start(count: number): Promise<KafkaCluster> {
  const running = readCluster();
  if (running) {
    if (running.nodes.length === count) {
      log(`already running (${count} node${count > 1 ? 's' : ''})`);
      return running;
    }
    throw new Error(`a cluster of ${running.nodes.length} is running: stop it first (npm run infra:kafka -- stop)`);
  }
  if (!javaWorks()) throw new Error('Java 17 or later is needed to run Kafka (java -version failed or is older)');
  const libs = fetchJars();
  rmSync(runDir(), { recursive: true, force: true });
  mkdirSync(runDir(), { recursive: true });
  writeFileSync(join(runDir(), 'log4j2.yaml'), LOG4J2);
  const id = clusterId();
  const nodes: KafkaNode[] = [];
  for (let nodeId = 1; nodeId <= count; nodeId++) {
    const dir = join(runDir(), `node-${nodeId}`);
    mkdirSync(dir, { recursive: true });
    const properties = join(dir, 'server.properties');
    writeFileSync(properties, serverProperties(nodeId, count, join(dir, 'data')));
    const format = spawnSync(
      'java',
      java(libs, [
        'kafka.tools.StorageTool',
        'format',
        '--cluster-id',
        id,
        '--config',
        properties,
        '--add-scram',
        `SCRAM-SHA-512=[name=${SCRAM_USER},password=${SCRAM_PASSWORD}]`,
      ]),
      { encoding: 'utf8' },
    );
    if (format.status !== 0) throw new Error(`formatting node ${nodeId} failed:\n${format.stdout}${format.stderr}`);
    const logFile = join(dir, 'server.log');
    const own = ports(nodeId);
    nodes.push({
      nodeId,
      pid: spawnNode(libs, dir),
      plaintext: `127.0.0.1:${own.plaintext}`,
      sasl: `127.0.0.1:${own.sasl}`,
      controller: `127.0.0.1:${own.controller}`,
      logFile,
    });
  }
  const cluster: KafkaCluster = {
    version: KAFKA_VERSION,
    nodes,
    brokers: nodes.map((node) => node.plaintext).join(','),
    saslBrokers: nodes.map((node) => node.sasl).join(','),
    scram: { mechanism: 'scram-sha-512', username: SCRAM_USER, password: SCRAM_PASSWORD },
  };
  writeFileSync(stateFile(), JSON.stringify(cluster, null, 2));
  const started = Date.now();
  try {
    await waitUntilServing(cluster);
  } catch (error) {
    await stop();
    throw error;
  }
  log(`${count} node${count > 1 ? 's' : ''} serving after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return cluster;
}

/** Starts the JVM of the node whose directory is `dir` (its properties and log there); returns its pid. */
function spawnNode(libs: string, dir: string): number {
  const out = openSync(join(dir, 'server.log'), 'a');
  const child = spawn('java', java(libs, ['kafka.Kafka', join(dir, 'server.properties')]), {
    detached: true,
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  child.unref();
  return child.pid ?? -1;
}

/** The running cluster's node `--node N`. */
function nodeOf(cluster: KafkaCluster | undefined, only: string | undefined): KafkaNode {
  if (!cluster) throw new Error('not running');
  const node = cluster.nodes.find((candidate) => String(candidate.nodeId) === only);
  if (!node) throw new Error(`no node ${only ?? '(give --node N)'}`);
  return node;
}

/** SIGKILL to one node (`--node N`): a broker whose machine died. Its data stays for `restart`. */
function killNode(only: string | undefined): void {
  const node = nodeOf(readCluster(), only);
  if (alive(node.pid)) process.kill(node.pid, 'SIGKILL');
  log(`node ${node.nodeId} (pid ${node.pid}) killed`);
}

/** Starts a killed or stopped node (`--node N`) again on its data, without formatting: it rejoins the cluster. */
function restartNode(only: string | undefined): KafkaCluster {
  // The state file, even when no node is alive (the only node of a one-node cluster was killed).
  const cluster = existsSync(stateFile()) ? (JSON.parse(readFileSync(stateFile(), 'utf8')) as KafkaCluster) : undefined;
  const node = nodeOf(cluster, only);
  if (alive(node.pid)) throw new Error(`node ${node.nodeId} is running (pid ${node.pid})`);
  node.pid = spawnNode(fetchJars(), join(runDir(), `node-${node.nodeId}`));
  writeFileSync(stateFile(), JSON.stringify(cluster, null, 2));
  log(`node ${node.nodeId} started again on its data (pid ${node.pid})`);
  return cluster as KafkaCluster;
}

async function stopNode(pid: number): Promise<void> {
  if (!alive(pid)) return;
  // The node leads its own process group (detached): the signal reaches the JVM whatever wraps it.
  process.kill(pid, 'SIGCONT');
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_GRACE_MS;
  while (alive(pid) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 200));
  if (alive(pid)) {
    log(`node pid ${pid} still running ${STOP_GRACE_MS / 1000} s after SIGTERM: SIGKILL`);
    process.kill(pid, 'SIGKILL');
  }
}

async function stop(): Promise<void> {
  if (!existsSync(stateFile())) {
    log('not running');
    return;
  }
  const cluster = JSON.parse(readFileSync(stateFile(), 'utf8')) as KafkaCluster;
  await Promise.all(cluster.nodes.map((node) => stopNode(node.pid)));
  rmSync(stateFile(), { force: true });
  log(`stopped ${cluster.nodes.length} node${cluster.nodes.length > 1 ? 's' : ''}`);
}

/** SIGSTOP or SIGCONT to one node (`--node N`) or all: a broker frozen as in a long GC pause or a network black hole. */
function signalNodes(signal: 'SIGSTOP' | 'SIGCONT', only: string | undefined): void {
  const cluster = readCluster();
  if (!cluster) throw new Error('not running');
  const nodes = cluster.nodes.filter((node) => only === undefined || String(node.nodeId) === only);
  if (nodes.length === 0) throw new Error(`no node ${only}`);
  for (const node of nodes) process.kill(node.pid, signal);
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      brokers: { type: 'string', default: '1' },
      node: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [command = 'status'] = positionals;
  const print = (cluster: KafkaCluster) =>
    process.stdout.write(values.json ? `${JSON.stringify(cluster)}\n` : `KAFKA_BROKERS=${cluster.brokers}\n`);
  switch (command) {
    case 'start': {
      const count = Number(values.brokers);
      if (count !== 1 && count !== 3) throw new Error(`--brokers must be 1 or 3, got ${values.brokers}`);
      print(await start(count));
      return 0;
    }
    case 'stop':
      await stop();
      return 0;
    case 'pause':
      signalNodes('SIGSTOP', values.node);
      return 0;
    case 'resume':
      signalNodes('SIGCONT', values.node);
      return 0;
    case 'kill':
      killNode(values.node);
      return 0;
    case 'restart':
      print(restartNode(values.node));
      return 0;
    case 'status': {
      const cluster = readCluster();
      if (!cluster) {
        log('not running');
        return 1;
      }
      print(cluster);
      return 0;
    }
    default:
      process.stderr.write(
        'usage: npm run infra:kafka -- start [--brokers 1|3] | stop | status [--json] | pause|resume [--node N] | kill|restart --node N\n',
      );
      return 2;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      log(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
}

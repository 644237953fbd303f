/**
 * The real cluster `bench:kafka-clients` runs on, and the neutral tools it checks the clients with:
 * kafkajs's admin for topics, leaders and committed offsets, and a plain reader of a whole topic.
 * The cluster is `npm run infra:kafka`'s (its node pids are what the faults signal): the one
 * `KAFKA_BROKERS` names, or three nodes started here and stopped at the end.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import type { KafkaCluster } from '../../scripts/kafka/infra.js';

const ROOT = resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function infra(args: string[]): string {
  return execFileSync('node', ['--import', 'tsx', 'scripts/kafka/infra.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** Where infra:kafka keeps its state (scripts/kafka/infra.ts, `stateFile`). */
function stateFile(): string {
  const cache = process.env['REELSTREAM_KAFKA_CACHE'] ?? join(homedir(), '.cache', 'reelstream', 'kafka');
  return join(process.env['KAFKA_INFRA_RUN_DIR'] ?? join(cache, 'run'), 'state.json');
}

export interface BenchCluster {
  brokers: string[];
  /** Undefined when KAFKA_BROKERS names a cluster infra:kafka did not start: no faults then. */
  nodes: KafkaCluster['nodes'] | undefined;
  admin: Admin;
  stop(): Promise<void>;
}

export async function openCluster(): Promise<BenchCluster> {
  const given = process.env['KAFKA_BROKERS'];
  let cluster: KafkaCluster | undefined;
  let started = false;
  if (given) {
    try {
      const running = JSON.parse(infra(['status', '--json'])) as KafkaCluster;
      cluster = running.brokers === given ? running : undefined;
    } catch {
      cluster = undefined;
    }
  } else {
    console.log('starting 3 Kafka nodes with infra:kafka (KAFKA_BROKERS names an existing cluster instead)…');
    cluster = JSON.parse(infra(['start', '--brokers', '3', '--json'])) as KafkaCluster;
    started = true;
  }
  const brokers = (given ?? cluster?.brokers ?? '').split(',');
  const admin = new Kafka({ clientId: 'bench-admin', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  return {
    brokers,
    nodes: cluster?.nodes,
    admin,
    async stop() {
      await admin.disconnect();
      if (started) infra(['stop']);
    },
  };
}

export async function createTopic(admin: Admin, topic: string, partitions: number, replicas: number): Promise<void> {
  await admin.createTopics({
    waitForLeaders: true,
    topics: [
      {
        topic,
        numPartitions: partitions,
        replicationFactor: replicas,
        configEntries: [{ name: 'min.insync.replicas', value: String(Math.min(2, replicas)) }],
      },
    ],
  });
}

export async function replicasOf(admin: Admin, topic: string, partition: number) {
  const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
  const entry = topics[0]?.partitions.find((candidate) => candidate.partitionId === partition);
  if (!entry) throw new Error(`no partition ${topic}/${partition}`);
  return { leader: entry.leader, followers: entry.replicas.filter((replica) => replica !== entry.leader) };
}

async function leaderOf(admin: Admin, topic: string, partition: number): Promise<number> {
  return (await replicasOf(admin, topic, partition)).leader;
}

/** Java's String.hashCode, and Kafka's abs of it: which `__consumer_offsets` partition holds a group. */
function groupPartition(groupId: string, partitions: number): number {
  let hash = 0;
  for (let index = 0; index < groupId.length; index++) hash = (Math.imul(31, hash) + groupId.charCodeAt(index)) | 0;
  return (hash === -2_147_483_648 ? 0 : Math.abs(hash)) % partitions;
}

/** The node coordinating `groupId`: the leader of its `__consumer_offsets` partition. */
export async function coordinatorOf(admin: Admin, groupId: string): Promise<number> {
  const { topics } = await admin.fetchTopicMetadata({ topics: ['__consumer_offsets'] });
  const partitions = topics[0]?.partitions.length ?? 0;
  return leaderOf(admin, '__consumer_offsets', groupPartition(groupId, partitions));
}

/** Waits until every node is back and every partition of `topics` has all its replicas in sync. */
export async function waitHealthy(admin: Admin, topics: string[], nodes: number, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const { brokers } = await admin.describeCluster();
      const metadata = await admin.fetchTopicMetadata({ topics });
      const lagging = metadata.topics.flatMap((topic) =>
        topic.partitions.filter((partition) => partition.isr.length < partition.replicas.length),
      );
      if (brokers.length === nodes && lagging.length === 0) return;
      last = `${brokers.length} of ${nodes} nodes, ${lagging.length} partitions short of replicas`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(1_000);
  }
  throw new Error(`cluster not healthy after ${timeoutMs / 1000} s: ${last}`);
}

/**
 * kill -9 of one node, and how to bring it back: the same command line in the same directory on the
 * same (unformatted) log directories, its pid written where infra:kafka's `stop` finds it.
 */
export function killNode(nodes: KafkaCluster['nodes'], nodeId: number): () => Promise<void> {
  const node = nodes.find((entry) => entry.nodeId === nodeId);
  if (!node) throw new Error(`no node ${nodeId}`);
  const argv = readFileSync(`/proc/${node.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const cwd = readlinkSync(`/proc/${node.pid}/cwd`);
  process.kill(node.pid, 'SIGKILL');
  return async () => {
    const out = openSync(node.logFile, 'a');
    const child = spawn(argv[0] ?? 'java', argv.slice(1), { cwd, detached: true, stdio: ['ignore', out, out] });
    closeSync(out);
    child.unref();
    node.pid = child.pid ?? -1;
    const state = JSON.parse(readFileSync(stateFile(), 'utf8')) as KafkaCluster;
    for (const entry of state.nodes) if (entry.nodeId === nodeId) entry.pid = node.pid;
    writeFileSync(stateFile(), JSON.stringify(state, null, 2));
    // Until it listens, the cluster's metadata may still show it (not fenced yet) with its replicas in sync.
    await listening(node.plaintext, 180_000);
  };
}

async function listening(address: string, timeoutMs: number): Promise<void> {
  const [host, port] = address.split(':');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((answer) => {
      const socket = connect({ host: host ?? '127.0.0.1', port: Number(port) }, () => {
        socket.end();
        answer(true);
      });
      socket.on('error', () => answer(false));
    });
    if (open) return;
    await sleep(500);
  }
  throw new Error(`${address} does not listen ${timeoutMs / 1000} s after the restart`);
}

/** Every record of `topic`, per partition in offset order, read by a plain kafkajs consumer of its own group. */
export async function readTopic(
  brokers: string[],
  admin: Admin,
  topic: string,
): Promise<Map<number, { offset: string; value: string; key: string }[]>> {
  const ends = await admin.fetchTopicOffsets(topic);
  const records = new Map<number, { offset: string; value: string; key: string }[]>();
  const remaining = new Set(ends.filter((end) => end.high !== end.low).map((end) => end.partition));
  const high = new Map(ends.map((end) => [end.partition, BigInt(end.high)]));
  if (remaining.size === 0) return records;
  const consumer = new Kafka({ clientId: 'bench-reader', brokers, logLevel: logLevel.NOTHING }).consumer({
    groupId: `${topic}.reader.${Date.now()}`,
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  const done = new Promise<void>((finish) => {
    void consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const list = records.get(batch.partition) ?? [];
        records.set(batch.partition, list);
        for (const message of batch.messages) {
          list.push({
            offset: message.offset,
            value: message.value?.toString('utf8') ?? '',
            key: message.key?.toString('utf8') ?? '',
          });
          if (BigInt(message.offset) + 1n >= (high.get(batch.partition) ?? 0n)) remaining.delete(batch.partition);
        }
        if (remaining.size === 0) finish();
      },
    });
  });
  const timeout = sleep(120_000).then(() => {
    throw new Error(`reading ${topic} back did not finish in 120 s`);
  });
  try {
    await Promise.race([done, timeout]);
  } finally {
    await consumer.disconnect();
  }
  return records;
}

/** The group's committed offset per partition (-1: none). */
export async function committedOffsets(admin: Admin, groupId: string, topic: string): Promise<Map<number, bigint>> {
  const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
  return new Map((entry?.partitions ?? []).map((partition) => [partition.partition, BigInt(partition.offset)]));
}

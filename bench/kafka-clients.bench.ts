/**
 * `npm run bench:kafka-clients`: kafkajs (the bus adapter's client) against @platformatic/kafka, on one
 * real three-node cluster in one run, each client set up as the adapter sets up kafkajs
 * (bench/support/kafka-clients.ts). Starts its own cluster with infra:kafka (set KAFKA_INFRA_PORT and
 * KAFKA_INFRA_RUN_DIR to keep it apart), or uses the infra:kafka cluster KAFKA_BROKERS names; on a
 * cluster infra:kafka did not start only the speed part runs (the faults need the node pids).
 * @confluentinc/kafka-javascript is not here: its install fetches a prebuilt binary from GitHub and
 * builds librdkafka from source otherwise, which downloads zlib, OpenSSL, zstd and curl (ADR 0020).
 *
 * Correctness first:
 * 1. Lost acknowledgement: one message at a time (all of one size) to a one-partition topic; after
 *    ten, the partition leader is frozen (SIGSTOP) until a send is rejected, i.e. longer than the
 *    producer's retries, then thawed. The same producer goes on; if it cannot publish again by itself
 *    (10 rejections in a row or 20 s without success) it is replaced, as the bus does. The topic is
 *    read back: every resolved message must be there exactly once, in its key's order.
 * 2. kill -9 during consumption: a group works 12,000 messages (6 partitions, commit per batch after
 *    the work); at a third, the group's coordinator is killed (it leads partitions too). When all are
 *    worked the committed offsets are compared with what was worked: below a committed offset
 *    nothing may be unworked. The node then restarts on its own log directories.
 * Speed second (before the faults, on the healthy cluster), rounds alternating between clients:
 * 3. produce: 50 callers, each awaiting one keyed ~300–600-byte JSON message at a time (the bus's
 *    publish), 16 partitions, replication 3: messages/s, send latency p50/p99, CPU ms per message of
 *    this process.
 * 4. consume: a fresh group reads 30,000 such messages, parses each, commits per batch: messages/s
 *    from first record to last, CPU ms per message.
 */
import {
  CLIENTS,
  kafkajsClient,
  type BenchProducer,
  type KafkaClientUnderTest,
  type OutRecord,
} from './support/kafka-clients.js';
import {
  committedOffsets,
  coordinatorOf,
  createTopic,
  killNode,
  replicasOf,
  openCluster,
  readTopic,
  waitHealthy,
  type BenchCluster,
} from './support/kafka-cluster.js';

const PRODUCE_CALLERS = 50;
const PRODUCE_ROUND_MS = 6_000;
const ROUNDS = 2;
const CONSUME_MESSAGES = 30_000;
const KILL_MESSAGES = 12_000;
const FAULT_REQUEST_TIMEOUT_MS = 1_500;
const FREEZE_CAP_MS = 60_000;
const SPEED_REQUEST_TIMEOUT_MS = 30_000;
const RUN = Date.now().toString(36);
type InfraNodes = NonNullable<BenchCluster['nodes']>;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1_000;
};
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const messageOf = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/** A platform-like JSON event of 300–600 bytes (`size` fixes it), its id inside. */
function platformRecord(id: number, size = 300 + ((id * 7_919) % 301)): OutRecord {
  const player = `op-7:player-${id % 500}`;
  const event = {
    id,
    run: RUN,
    type: 'WinCredited',
    operatorId: 'op-7',
    playerId: player,
    roundId: `r-${9_007_000_000 + id}`,
    amount: { minor: 1_250 + (id % 100), currency: 'EUR' },
    occurredAt: '2026-11-28T12:00:00.000Z',
    note: '',
  };
  const bare = JSON.stringify(event).length;
  event.note = 'x'.repeat(Math.max(0, size - bare));
  return {
    key: player,
    value: JSON.stringify(event),
    headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', 'x-kind': 'win' },
  };
}
const idOf = (value: string) => (JSON.parse(value) as { id: number }).id;

type Row = [metric: string, ...values: (number | string)[]];
const rows: { section: string; row: Row }[] = [];
const record = (section: string, row: Row) => rows.push({ section, row });

// ---- speed ----------------------------------------------------------------------------------

interface ProduceMeasure {
  messages: number;
  ms: number;
  cpuMs: number;
  latencies: number[];
}

interface ProduceShape {
  label: string;
  callers: number;
  perSend: number;
}
const SHAPES: ProduceShape[] = [
  { label: `${PRODUCE_CALLERS} callers, 1 msg/send`, callers: PRODUCE_CALLERS, perSend: 1 },
  { label: '1 caller, 100 msgs/send', callers: 1, perSend: 100 },
];

async function produceRound(
  producer: BenchProducer,
  topic: string,
  shape: ProduceShape,
  firstId: number,
): Promise<ProduceMeasure> {
  const latencies: number[] = [];
  let next = firstId;
  const cpuBefore = cpuMs();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: shape.callers }, async () => {
      while (performance.now() - start < PRODUCE_ROUND_MS) {
        const records = Array.from({ length: shape.perSend }, () => platformRecord(next++));
        const sent = performance.now();
        await producer.send(topic, records);
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const messages = latencies.length * shape.perSend;
  return { messages, ms: performance.now() - start, cpuMs: cpuMs() - cpuBefore, latencies };
}

// Long because: both shapes, rounds alternating between the clients, then one summary per client and shape.
async function speedProduce(cluster: BenchCluster): Promise<void> {
  const topic = `bench.kclients.produce.${RUN}`;
  await createTopic(cluster.admin, topic, 16, 3);
  const producers = new Map<KafkaClientUnderTest, BenchProducer>();
  for (const client of CLIENTS) {
    const producer = await client.producer(cluster.brokers, { requestTimeoutMs: SPEED_REQUEST_TIMEOUT_MS });
    await producer.send(topic, [platformRecord(-1)]);
    producers.set(client, producer);
  }
  let id = 0;
  for (const shape of SHAPES) {
    const measured = new Map<KafkaClientUnderTest, ProduceMeasure[]>(CLIENTS.map((client) => [client, []]));
    for (let round = 0; round < ROUNDS; round++)
      for (const client of round % 2 === 0 ? CLIENTS : [...CLIENTS].reverse()) {
        const producer = producers.get(client);
        if (!producer) continue;
        const result = await produceRound(producer, topic, shape, id);
        id += result.messages;
        measured.get(client)?.push(result);
        console.log(`  produce (${shape.label}) round ${round + 1}, ${client.name}: ${result.messages} messages`);
      }
    const summary = CLIENTS.map((client) => {
      const all = measured.get(client) ?? [];
      const messages = all.reduce((sum, m) => sum + m.messages, 0);
      const latencies = all.flatMap((m) => m.latencies).sort((x, y) => x - y);
      return {
        rate: (messages * 1_000) / all.reduce((sum, m) => sum + m.ms, 0),
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        cpu: all.reduce((sum, m) => sum + m.cpuMs, 0) / messages,
      };
    });
    record('speed', [`produce msgs/s (${shape.label})`, ...summary.map((m) => m.rate)]);
    record('speed', ['  send latency p50 ms', ...summary.map((m) => m.p50)]);
    record('speed', ['  send latency p99 ms', ...summary.map((m) => m.p99)]);
    record('speed', ['  CPU ms/msg (client process)', ...summary.map((m) => m.cpu)]);
  }
  for (const producer of producers.values()) await producer.close();
}

async function consumeOnce(cluster: BenchCluster, client: KafkaClientUnderTest, topic: string, round: number) {
  const groupId = `${topic}.${client.name.replace(/[^a-z]/g, '')}.${round}`;
  const seen = new Set<number>();
  let first = 0;
  let cpuFirst = 0;
  let finished: () => void = () => undefined;
  const all = new Promise<void>((done) => (finished = done));
  const errors: string[] = [];
  const consumer = await client.consume(cluster.brokers, {
    topic,
    groupId,
    handle: ({ value }) => {
      if (seen.size === 0) {
        first = performance.now();
        cpuFirst = cpuMs();
      }
      seen.add(idOf(value));
      if (seen.size === CONSUME_MESSAGES) finished();
    },
    onError: (error) => errors.push(messageOf(error)),
  });
  await Promise.race([all, sleep(180_000)]);
  const ms = performance.now() - first;
  const cpu = cpuMs() - cpuFirst;
  await consumer.stop();
  const committed = await committedOffsets(cluster.admin, groupId, topic);
  const ends = await cluster.admin.fetchTopicOffsets(topic);
  const uncommitted = ends.reduce(
    (sum, end) => sum + Number(BigInt(end.high) - (committed.get(end.partition) ?? 0n)),
    0,
  );
  console.log(
    `  consume round ${round + 1}, ${client.name}: ${seen.size} messages, ${uncommitted} left uncommitted after stop` +
      (errors.length ? `, errors: ${errors.slice(0, 3).join(' | ')}` : ''),
  );
  return {
    rate: (seen.size * 1_000) / ms,
    cpu: cpu / seen.size,
    complete: seen.size === CONSUME_MESSAGES,
    uncommitted,
  };
}

async function speedConsume(cluster: BenchCluster): Promise<void> {
  const topic = `bench.kclients.consume.${RUN}`;
  await createTopic(cluster.admin, topic, 16, 3);
  const filler = await kafkajsClient.producer(cluster.brokers, { requestTimeoutMs: SPEED_REQUEST_TIMEOUT_MS });
  for (let id = 0; id < CONSUME_MESSAGES; id += 500)
    await filler.send(
      topic,
      Array.from({ length: 500 }, (_, index) => platformRecord(id + index)),
    );
  await filler.close();
  const measured = new Map<KafkaClientUnderTest, Awaited<ReturnType<typeof consumeOnce>>[]>(
    CLIENTS.map((c) => [c, []]),
  );
  for (let round = 0; round < ROUNDS; round++)
    for (const client of round % 2 === 0 ? CLIENTS : [...CLIENTS].reverse())
      measured.get(client)?.push(await consumeOnce(cluster, client, topic, round));
  const mean = (client: KafkaClientUnderTest, pick: (m: Awaited<ReturnType<typeof consumeOnce>>) => number) => {
    const all = measured.get(client) ?? [];
    return all.reduce((sum, m) => sum + pick(m), 0) / all.length;
  };
  record('speed', ['consume msgs/s (commit per batch)', ...CLIENTS.map((c) => mean(c, (m) => m.rate))]);
  record('speed', ['consume CPU ms/msg (client process)', ...CLIENTS.map((c) => mean(c, (m) => m.cpu))]);
  record('speed', [
    'consume: all read, all committed after stop',
    ...CLIENTS.map((c) => ((measured.get(c) ?? []).every((m) => m.complete && m.uncommitted === 0) ? 'yes' : 'NO')),
  ]);
}

// ---- correctness ----------------------------------------------------------------------------

interface LostAckResult {
  resolved: number;
  rejected: number;
  frozenMs: number;
  lost: number;
  duplicated: number;
  reordered: number;
  rejectedButWritten: number;
  recovery: string;
  firstError: string;
  longestSendMs: number;
}

// Long because: one stream of publishes through freeze, thaw and (if needed) replacement, read back at the end.
async function lostAck(
  cluster: BenchCluster,
  nodes: InfraNodes,
  client: KafkaClientUnderTest,
  victim: 'leader' | 'follower',
): Promise<LostAckResult> {
  const topic = `bench.kclients.lost-ack.${victim}.${client.name.replace(/[^a-z]/g, '')}.${RUN}`;
  await createTopic(cluster.admin, topic, 1, 3);
  let producer = await client.producer(cluster.brokers, { requestTimeoutMs: FAULT_REQUEST_TIMEOUT_MS });
  await producer.send(topic, [platformRecord(-1, 400)]);
  const { leader, followers } = await replicasOf(cluster.admin, topic, 0);
  const frozenNode = victim === 'leader' ? leader : followers[0];
  const pid = nodes.find((node) => node.nodeId === frozenNode)?.pid;
  if (pid === undefined) throw new Error(`no pid for node ${frozenNode}`);

  const resolved: number[] = [];
  const rejected: number[] = [];
  type Phase = 'before' | 'frozen' | 'thawed';
  let phase = 'before' as Phase;
  let frozenAt = 0;
  let frozenMs = 0;
  let thawedAt = 0;
  let lastSuccess = 0;
  let rejectedInRow = 0;
  let afterThaw = 0;
  let recovery = '';
  let firstError = '';
  let longestSendMs = 0;
  let cap: NodeJS.Timeout | undefined;
  const thaw = () => {
    if (phase !== 'frozen') return;
    clearTimeout(cap);
    process.kill(pid, 'SIGCONT');
    frozenMs = performance.now() - frozenAt;
    thawedAt = lastSuccess = performance.now();
    phase = 'thawed';
  };
  try {
    for (let id = 0; afterThaw < 200 && (phase !== 'thawed' || performance.now() - thawedAt < 120_000); id++) {
      const sentAt = performance.now();
      try {
        await producer.send(topic, [platformRecord(id, 400)]);
        longestSendMs = Math.max(longestSendMs, performance.now() - sentAt);
        resolved.push(id);
        rejectedInRow = 0;
        lastSuccess = performance.now();
        if (phase === 'thawed') {
          afterThaw++;
          recovery ||= 'by itself';
        }
      } catch (error) {
        longestSendMs = Math.max(longestSendMs, performance.now() - sentAt);
        rejected.push(id);
        rejectedInRow++;
        firstError ||= messageOf(error).slice(0, 90);
        if (phase === 'frozen') thaw();
        else if (phase === 'thawed' && (rejectedInRow >= 10 || performance.now() - lastSuccess > 20_000) && !recovery) {
          recovery = `replaced after ${rejectedInRow} rejections in a row`;
          await Promise.race([producer.close().catch(() => undefined), sleep(5_000)]);
          producer = await client.producer(cluster.brokers, { requestTimeoutMs: FAULT_REQUEST_TIMEOUT_MS });
        }
        await sleep(100);
      }
      if (phase === 'before' && resolved.length >= 10) {
        process.kill(pid, 'SIGSTOP');
        frozenAt = performance.now();
        phase = 'frozen';
        // A send that neither resolves nor fails does not keep the leader frozen for ever.
        cap = setTimeout(thaw, FREEZE_CAP_MS);
      }
    }
  } finally {
    thaw();
    await Promise.race([producer.close().catch(() => undefined), sleep(5_000)]);
  }
  if (afterThaw < 200) recovery ||= `NOT recovered (${afterThaw} published in 120 s after the thaw)`;

  await waitHealthy(cluster.admin, [topic, '__consumer_offsets'], nodes.length);
  const log = [...(await readTopic(cluster.brokers, cluster.admin, topic)).values()].flat();
  const count = new Map<number, number>();
  const lastIdOfKey = new Map<string, number>();
  let reordered = 0;
  for (const entry of log) {
    const id = idOf(entry.value);
    count.set(id, (count.get(id) ?? 0) + 1);
    if (id < (lastIdOfKey.get(entry.key) ?? -Infinity)) reordered++;
    lastIdOfKey.set(entry.key, id);
  }
  return {
    resolved: resolved.length,
    rejected: rejected.length,
    frozenMs,
    lost: resolved.filter((id) => !count.has(id)).length,
    duplicated: [...count.values()].filter((n) => n > 1).length,
    reordered,
    rejectedButWritten: rejected.filter((id) => count.has(id)).length,
    recovery,
    firstError: firstError || `none while frozen (thawed after ${FREEZE_CAP_MS / 1_000} s)`,
    longestSendMs,
  };
}

interface KillResult {
  killedNode: number;
  worked: number;
  unworked: number;
  skippedByCommit: number;
  uncommitted: number;
  reworked: number;
  killToDoneS: number;
  recreated: number;
  errors: number;
}

// Long because: one group's run through the kill, then the committed offsets held against the work.
async function killDuringConsumption(
  cluster: BenchCluster,
  nodes: InfraNodes,
  client: KafkaClientUnderTest,
): Promise<KillResult> {
  const topic = `bench.kclients.kill.${client.name.replace(/[^a-z]/g, '')}.${RUN}`;
  const groupId = `${topic}.group`;
  await createTopic(cluster.admin, topic, 6, 3);
  const filler = await kafkajsClient.producer(cluster.brokers, { requestTimeoutMs: SPEED_REQUEST_TIMEOUT_MS });
  for (let id = 0; id < KILL_MESSAGES; id += 500)
    await filler.send(
      topic,
      Array.from({ length: 500 }, (_, index) => platformRecord(id + index)),
    );
  await filler.close();

  const worked = new Set<number>();
  let handled = 0;
  let errors = 0;
  let killed: { node: number; at: number; restart: () => Promise<void> } | undefined;
  let doneAt = 0;
  const consumer = await client.consume(cluster.brokers, {
    topic,
    groupId,
    handle: async ({ value }) => {
      await new Promise((next) => setImmediate(next));
      worked.add(idOf(value));
      handled++;
      if (worked.size === KILL_MESSAGES && !doneAt) doneAt = performance.now();
    },
    onError: () => errors++,
  });
  const deadline = performance.now() + 240_000;
  while (worked.size < KILL_MESSAGES && performance.now() < deadline) {
    if (!killed && worked.size >= KILL_MESSAGES / 3) {
      const node = await coordinatorOf(cluster.admin, groupId);
      killed = { node, at: performance.now(), restart: killNode(nodes, node) };
      console.log(`  ${client.name}: kill -9 node ${node} (the group's coordinator) at ${worked.size} worked`);
    }
    await sleep(50);
  }
  await sleep(1_000);
  await Promise.race([consumer.stop(), sleep(60_000)]);
  // The group is gone: its commits can no longer change. The node comes back before they are read.
  await killed?.restart();
  await waitHealthy(cluster.admin, [topic, '__consumer_offsets'], nodes.length);

  // What the group committed, against what was worked: nothing below a committed offset may be unworked.
  const committed = await committedOffsets(cluster.admin, groupId, topic);
  const log = await readTopic(cluster.brokers, cluster.admin, topic);
  let skippedByCommit = 0;
  let uncommitted = 0;
  for (const [partition, entries] of log) {
    const position = committed.get(partition) ?? 0n;
    uncommitted += entries.filter((entry) => BigInt(entry.offset) >= position).length;
    for (const entry of entries)
      if (BigInt(entry.offset) < position && !worked.has(idOf(entry.value))) skippedByCommit++;
  }
  return {
    killedNode: killed?.node ?? -1,
    worked: worked.size,
    unworked: KILL_MESSAGES - worked.size,
    skippedByCommit,
    uncommitted,
    reworked: handled - worked.size,
    killToDoneS: killed && doneAt ? (doneAt - killed.at) / 1_000 : NaN,
    recreated: consumer.recreated,
    errors,
  };
}

async function correctness(cluster: BenchCluster): Promise<void> {
  const nodes = cluster.nodes;
  if (!nodes || nodes.length < 3) {
    console.log('fault cases NOT run: they need a 3-node cluster of `npm run infra:kafka` (its node pids)');
    return;
  }
  // The leader frozen is the case; a frozen follower is what loses answers with replicas: the
  // leader writes the batch but answers (acks from all in-sync replicas) only once the follower leaves the ISR.
  for (const victim of ['leader', 'follower'] as const) {
    const acks: LostAckResult[] = [];
    for (const client of CLIENTS) {
      console.log(`  lost acknowledgement (${victim} frozen), ${client.name}…`);
      acks.push(await lostAck(cluster, nodes, client, victim));
      console.log(`    ${JSON.stringify(acks.at(-1))}`);
    }
    lostAckRows(`lost ack (${victim} SIGSTOP)`, acks);
  }
  const kills: KillResult[] = [];
  for (const client of CLIENTS) {
    console.log(`  kill -9 during consumption, ${client.name}…`);
    kills.push(await killDuringConsumption(cluster, nodes, client));
    console.log(`    ${JSON.stringify(kills.at(-1))}`);
  }
  const k = `kill -9 coordinator (${KILL_MESSAGES} msgs)`;
  record(k, ['committed past unworked (must be 0)', ...kills.map((r) => r.skippedByCommit)]);
  record(k, ['never worked', ...kills.map((r) => r.unworked)]);
  record(k, ['worked but left uncommitted after stop', ...kills.map((r) => r.uncommitted)]);
  record(k, ['handler runs beyond one per message', ...kills.map((r) => r.reworked)]);
  record(k, ['kill → all worked, s', ...kills.map((r) => r.killToDoneS.toFixed(1))]);
  record(k, ['consumer recreated by the wrapper', ...kills.map((r) => r.recreated)]);
  record(k, ['client errors reported', ...kills.map((r) => r.errors)]);
}

function lostAckRows(s: string, acks: LostAckResult[]): void {
  record(s, ['published (resolved) / rejected', ...acks.map((a) => `${a.resolved} / ${a.rejected}`)]);
  record(s, ['node frozen, s', ...acks.map((a) => (a.frozenMs / 1_000).toFixed(1))]);
  record(s, ['longest single send, s', ...acks.map((a) => (a.longestSendMs / 1_000).toFixed(1))]);
  record(s, ['resolved but LOST', ...acks.map((a) => a.lost)]);
  record(s, ['DUPLICATED in the log', ...acks.map((a) => a.duplicated)]);
  record(s, ['out of key order', ...acks.map((a) => a.reordered)]);
  record(s, ['rejected yet written (caller may retry)', ...acks.map((a) => a.rejectedButWritten)]);
  record(s, ['producer recovered', ...acks.map((a) => a.recovery)]);
  record(s, ['first rejection', ...acks.map((a) => a.firstError)]);
}

// ---- report ---------------------------------------------------------------------------------

function format(value: number | string): string {
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(value >= 1 ? 1 : 3);
}

function printTable(): void {
  const header = ['', ...CLIENTS.map((client) => `${client.name} ${client.version}`)];
  const ratioHeaders = CLIENTS.slice(1).map((client) => `${client.name} / kafkajs`);
  const lines: string[][] = [[...header, ...ratioHeaders]];
  let section = '';
  for (const { section: name, row } of rows) {
    if (name !== section) {
      section = name;
      lines.push([`[${name}]`]);
    }
    const [metric, ...values] = row;
    const base = values[0];
    const ratios = values
      .slice(1)
      .map((value) =>
        typeof value === 'number' && typeof base === 'number' && base !== 0 ? `${(value / base).toFixed(2)}×` : '',
      );
    lines.push([metric, ...values.map(format), ...ratios]);
  }
  const widths = (lines[0] ?? []).map((_, column) => Math.max(...lines.map((line) => (line[column] ?? '').length)));
  for (const line of lines)
    console.log(
      line.length === 1
        ? line[0]
        : line
            .map((cell, column) => cell.padEnd(widths[column] ?? 0))
            .join('  ')
            .trimEnd(),
    );
}

async function main(): Promise<void> {
  const cluster = await openCluster();
  try {
    console.log(`brokers ${cluster.brokers.join(',')}; speed first (healthy cluster), then the faults`);
    await speedProduce(cluster);
    await speedConsume(cluster);
    await correctness(cluster);
  } finally {
    await cluster.stop();
  }
  printTable();
  console.log("ratios: the other client's figure over kafkajs's (msgs/s: higher is faster; ms: lower is better)");
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

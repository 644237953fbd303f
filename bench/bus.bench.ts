/**
 * `npm run bench:bus`: the embedded durable log on a temp file with synchronous=FULL (WAL).
 *
 * 1. Publish: 50 producers, each publishing one message at a time (awaiting it); publishes of the
 *    same event-loop turn are group-committed. Compared with raw better-sqlite3 inserts of the same
 *    rows (same columns and index, same durability) with the batch size the bus achieved. Rounds
 *    alternate so both see the same machine load.
 * 2. End to end: the same 50 producers while one consumer group (another client on the file) handles
 *    every message and commits it: throughput until the last commit, latency publish → handler and
 *    publish → durable commit (commits observed by polling the offsets table every millisecond).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteMessageBus, partitionFor } from '@reelstream/platform-messaging-sqlite';

const PRODUCERS = 50;
const ROUNDS = 2;
const ROUND_MS = 2_500;
const END_TO_END_MESSAGES = 10_000;

const payload = (n: number) => ({
  roundId: 9_007_000_000_000 + n,
  bet: 100,
  currency: 'EUR',
  playerId: `player-${n % PRODUCERS}`,
});
const headers = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', 'x-kind': 'bet' };

interface Measure {
  operations: number;
  ms: number;
}
const rate = (m: Measure) => (m.operations * 1_000) / m.ms;
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function publishRound(bus: SqliteMessageBus, ms: number): Promise<Measure & { transactions: number }> {
  const before = bus.publishStats.transactions;
  const start = performance.now();
  let operations = 0;
  await Promise.all(
    Array.from({ length: PRODUCERS }, async (_, producer) => {
      while (performance.now() - start < ms) {
        await bus.publish('bench.publish', { key: `player-${producer}`, value: payload(operations), headers });
        operations += 1;
      }
    }),
  );
  return { operations, ms: performance.now() - start, transactions: bus.publishStats.transactions - before };
}

function rawInserter(path: string) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE raw_messages (id INTEGER PRIMARY KEY AUTOINCREMENT, topic TEXT NOT NULL, partition INTEGER NOT NULL,
    key TEXT NOT NULL, value TEXT NOT NULL, headers TEXT NOT NULL, timestamp INTEGER NOT NULL);
    CREATE INDEX raw_by_partition ON raw_messages (topic, partition, id);`);
  const insert = db.prepare(
    'INSERT INTO raw_messages (topic, partition, key, value, headers, timestamp) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const batch = db.transaction((rows: number, offset: number) => {
    for (let i = 0; i < rows; i++) {
      const key = `player-${(offset + i) % PRODUCERS}`;
      insert.run(
        'bench.raw',
        partitionFor(key, 16),
        key,
        JSON.stringify(payload(offset + i)),
        JSON.stringify(headers),
        Date.now(),
      );
    }
  });
  return {
    round(rowsPerTransaction: number, ms: number): Measure {
      const start = performance.now();
      let operations = 0;
      while (performance.now() - start < ms) {
        batch.immediate(rowsPerTransaction, operations);
        operations += rowsPerTransaction;
      }
      return { operations, ms: performance.now() - start };
    },
    close: () => db.close(),
  };
}

async function endToEnd(path: string): Promise<{ throughput: number; handler: number[]; commit: number[] }> {
  const producer = await SqliteMessageBus.open(path, { instanceId: 'bench-producer' });
  const consumerBus = await SqliteMessageBus.open(path, { instanceId: 'bench-consumer' });
  const watcher = new Database(path, { readonly: true });
  const positions = watcher.prepare<[], { partition: number; position: number }>(
    "SELECT partition, position FROM bus_offsets WHERE group_id = 'bench-e2e'",
  );
  const handlerLatency: number[] = [];
  const commitLatency: number[] = [];
  const awaitingCommit = new Map<number, { offset: number; sentAt: number }[]>();
  let handled = 0;
  let lastCommitAt = 0;

  const consumer = await consumerBus.subscribe({
    groupId: 'bench-e2e',
    topics: ['bench.e2e'],
    handler: async (message) => {
      const sentAt = (message.value as { sentAt: number }).sentAt;
      handlerLatency.push(performance.now() - sentAt);
      const queue = awaitingCommit.get(message.partition) ?? [];
      queue.push({ offset: Number(message.offset), sentAt });
      awaitingCommit.set(message.partition, queue);
      handled += 1;
    },
  });
  await consumer.ready;
  const commitWatch = setInterval(() => {
    const now = performance.now();
    for (const { partition, position } of positions.all()) {
      const queue = awaitingCommit.get(partition);
      while (queue && queue.length > 0 && (queue[0]?.offset ?? Infinity) <= position) {
        commitLatency.push(now - (queue.shift()?.sentAt ?? now));
        lastCommitAt = now;
      }
    }
  }, 1);

  const start = performance.now();
  let sent = 0;
  await Promise.all(
    Array.from({ length: PRODUCERS }, async (_, p) => {
      while (sent < END_TO_END_MESSAGES) {
        sent += 1;
        await producer.publish('bench.e2e', {
          key: `player-${p}`,
          value: { ...payload(sent), sentAt: performance.now() },
          headers,
        });
      }
    }),
  );
  while (commitLatency.length < END_TO_END_MESSAGES) await new Promise((resolve) => setTimeout(resolve, 5));
  clearInterval(commitWatch);
  const throughput = (handled * 1_000) / (lastCommitAt - start);

  await consumer.stop();
  await Promise.all([producer.close(), consumerBus.close()]);
  watcher.close();
  return { throughput, handler: handlerLatency.sort((a, b) => a - b), commit: commitLatency.sort((a, b) => a - b) };
}

const dir = mkdtempSync(join(tmpdir(), 'bus-bench-'));
try {
  const busPath = join(dir, 'bus.db');
  const bus = await SqliteMessageBus.open(busPath, { synchronous: 'FULL', instanceId: 'bench-publisher' });
  const raw = rawInserter(join(dir, 'raw.db'));
  const publishes: Measure[] = [];
  const inserts: Measure[] = [];
  let transactions = 0;
  await publishRound(bus, 300); // warm-up: statements prepared, topic registered
  for (let round = 0; round < ROUNDS; round++) {
    const published = await publishRound(bus, ROUND_MS);
    publishes.push(published);
    transactions += published.transactions;
    const batchSize = Math.max(1, Math.round(published.operations / published.transactions));
    inserts.push(raw.round(batchSize, ROUND_MS));
  }
  raw.close();
  await bus.close();

  const sum = (ms: Measure[]): Measure => ({
    operations: ms.reduce((a, m) => a + m.operations, 0),
    ms: ms.reduce((a, m) => a + m.ms, 0),
  });
  const published = sum(publishes);
  const inserted = sum(inserts);
  const e2e = await endToEnd(busPath);

  const rows: [string, string][] = [
    [
      `publish: ${PRODUCERS} producers, single awaited publishes, group-committed`,
      `${rate(published).toFixed(0)} msg/s (avg ${(published.operations / transactions).toFixed(1)} msg per transaction)`,
    ],
    ['raw better-sqlite3 INSERT, same rows, index, durability and batch size', `${rate(inserted).toFixed(0)} rows/s`],
    ['publish / raw', `${(rate(published) / rate(inserted)).toFixed(2)}`],
    [
      `end to end, one group: publish → handler → commit (${END_TO_END_MESSAGES} msgs)`,
      `${e2e.throughput.toFixed(0)} msg/s`,
    ],
    [
      'latency publish → handler  p50 / p99',
      `${percentile(e2e.handler, 50).toFixed(1)} ms / ${percentile(e2e.handler, 99).toFixed(1)} ms`,
    ],
    [
      'latency publish → commit   p50 / p99',
      `${percentile(e2e.commit, 50).toFixed(1)} ms / ${percentile(e2e.commit, 99).toFixed(1)} ms`,
    ],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log(`bus bench: SQLite WAL, synchronous=FULL, temp file, node ${process.version}`);
  for (const [label, value] of rows) console.log(`  ${label.padEnd(width)}  ${value}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

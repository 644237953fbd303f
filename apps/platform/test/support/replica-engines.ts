/**
 * What the replica proof reads of the bus and of the event log, on whichever engines the cluster
 * runs: the embedded SQLite bus and event store in the data dir's `reelstream.db` (their tables
 * read directly), Kafka (a consumer of its own reads `wallet.requests` from the beginning up to the
 * high watermarks; the groups' lag is their committed offsets against the high watermarks) and
 * PostgreSQL (the `es_events` table of the URL's schema). The checks themselves are in replica-proof.ts.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Headers } from '@reelstream/contracts';
import Database from 'better-sqlite3';
import { Kafka, logLevel, type Admin, type Consumer } from 'kafkajs';
import pg from 'pg';

/** The production engines of a cluster: every replica gets BUS_URL and EVENT_STORE_URL. */
export interface ReplicaEngines {
  /** `host:port,…`: the replicas' `BUS_URL` is `kafka://` and these. */
  readonly kafkaBrokers: string;
  /** `postgres://…?schema=…`, a schema of the cluster's own, on the server: what the proof reads. */
  readonly eventStoreUrl: string;
  /**
   * The replicas' EVENT_STORE_URL when it differs: the same schema through PgBouncer in transaction
   * mode, each replica's LISTEN connection to the server itself, as the production overlay runs them.
   */
  readonly appsEventStoreUrl?: string;
}

const WALLET_TOPICS = ['wallet.requests', 'wallet.cancels', 'wallet.retry.1s', 'wallet.retry.5s', 'wallet.retry.30s'];

/** One message published on `wallet.requests`: its JSON value and when it was published (epoch ms). */
export interface PublishedRequest {
  value: string;
  timestamp: number;
  /**
   * Put back by the dispatcher from a delay topic (it carries `x-retry-count`): a win it could not act on
   * yet (its operator's circuit open) goes round a delay topic and returns with the same body.
   */
  returned: boolean;
}

interface BusReader {
  /**
   * Marks where the cluster's messages begin, before it starts: a Kafka broker keeps the topics of
   * earlier runs and other suites (the same topic names), which the proof must not count.
   */
  markStart(): Promise<void>;
  /** Every message on `wallet.requests` since `markStart`, in the order published. */
  walletRequests(): Promise<PublishedRequest[]>;
  /** Partitions of the wallet topics that a consumer group of them has not caught up with. */
  laggingPartitions(): Promise<number>;
  /** Changes whenever a message is published on any topic. */
  fingerprint(): Promise<string>;
  close(): Promise<void>;
}

/** An event of the log with its data parsed. */
interface LoggedEvent {
  type: string;
  data: Record<string, unknown>;
}

export interface EventReader {
  /** Rounds with a RoundStarted and neither a RoundSettled nor a RoundCanceled. */
  openRounds(): Promise<number>;
  /** Per round stream: its starts, settlements and cancels. */
  roundEnds(): Promise<[stream: string, started: number, settled: number, canceled: number][]>;
  /** The events of these types, in the log's order. */
  eventsOfTypes(types: readonly string[]): Promise<LoggedEvent[]>;
  /** The walletTx streams of the dispatcher's recovery attempts, one entry per attempt. */
  recoveryAttemptStreams(): Promise<string[]>;
  /** Per round id: the position of its RoundStarted and of its end (NaN and +∞ when missing), comparable with each other. */
  roundSpans(roundIds: readonly number[]): Promise<Map<number, { start: number; end: number }>>;
  /** Changes whenever an event is appended. */
  fingerprint(): Promise<string>;
  close(): Promise<void>;
}

function openLog(dataDir: string): Database.Database {
  const db = new Database(join(dataDir, 'reelstream.db'), { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}

/** Runs `read` on a read-only connection to the data dir's SQLite file, opened for it alone. */
function withLog<T>(dataDir: string, read: (db: Database.Database) => T): Promise<T> {
  const db = openLog(dataDir);
  try {
    return Promise.resolve(read(db));
  } finally {
    db.close();
  }
}

function sqliteBus(dataDir: string): BusReader {
  return {
    // A fresh data dir: every message on it is the cluster's.
    markStart: () => Promise.resolve(),
    walletRequests: () =>
      withLog(dataDir, (db) =>
        (
          db
            .prepare(`SELECT value, timestamp, headers FROM bus_messages WHERE topic = 'wallet.requests' ORDER BY id`)
            .raw()
            .all() as [string, number, string | null][]
        ).map(([value, timestamp, headers]) => ({
          value,
          timestamp,
          returned: Object.hasOwn(JSON.parse(headers ?? '{}') as object, Headers.retryCount),
        })),
      ),
    laggingPartitions: () =>
      withLog(dataDir, (db) => {
        const placeholders = WALLET_TOPICS.map(() => '?').join(', ');
        return db
          .prepare(
            `SELECT coalesce(sum(ends.last - coalesce(o.position, 0) > 0), 0) FROM
               (SELECT topic, partition, max(id) AS last FROM bus_messages WHERE topic IN (${placeholders}) GROUP BY topic, partition) ends
             JOIN (SELECT DISTINCT group_id, topic FROM bus_offsets) groups ON groups.topic = ends.topic
             LEFT JOIN bus_offsets o ON o.group_id = groups.group_id AND o.topic = ends.topic AND o.partition = ends.partition`,
          )
          .pluck()
          .get(...WALLET_TOPICS) as number;
      }),
    fingerprint: () => withLog(dataDir, (db) => String(db.prepare('SELECT max(id) FROM bus_messages').pluck().get())),
    close: () => Promise.resolve(),
  };
}

function sqliteEvents(dataDir: string): EventReader {
  return {
    openRounds: () =>
      withLog(
        dataDir,
        (db) =>
          db
            .prepare(
              `SELECT count(*) FROM (SELECT stream_id FROM es_events WHERE category = 'round-' GROUP BY stream_id
               HAVING sum(type = 'RoundStarted') > 0 AND sum(type IN ('RoundSettled', 'RoundCanceled')) = 0)`,
            )
            .pluck()
            .get() as number,
      ),
    roundEnds: () =>
      withLog(
        dataDir,
        (db) =>
          db
            .prepare(
              `SELECT stream_id, sum(type = 'RoundStarted'), sum(type = 'RoundSettled'), sum(type = 'RoundCanceled')
               FROM es_events WHERE category = 'round-' GROUP BY stream_id`,
            )
            .raw()
            .all() as [string, number, number, number][],
      ),
    eventsOfTypes: (types) =>
      withLog(dataDir, (db) =>
        (
          db
            .prepare(
              `SELECT type, data FROM es_events WHERE type IN (${types.map(() => '?').join(', ')}) ORDER BY position`,
            )
            .raw()
            .all(...types) as [string, string][]
        ).map(([type, data]) => ({ type, data: JSON.parse(data) as Record<string, unknown> })),
      ),
    recoveryAttemptStreams: () =>
      withLog(
        dataDir,
        (db) =>
          db
            .prepare(
              `SELECT stream_id FROM es_events WHERE category = 'walletTx-' AND type = 'WalletAttempted' AND json_extract(data, '$.recovery') = 1`,
            )
            .pluck()
            .all() as string[],
      ),
    roundSpans: (roundIds) =>
      withLog(dataDir, (db) => {
        const span = db.prepare<[string], { start: number | null; end: number | null }>(
          `SELECT min(CASE WHEN type = 'RoundStarted' THEN position END) AS start,
                  min(CASE WHEN type IN ('RoundSettled', 'RoundCanceled') THEN position END) AS end
           FROM es_events WHERE stream_id = ?`,
        );
        return new Map(
          roundIds.map((roundId) => {
            const row = span.get(`round-${roundId}`);
            return [roundId, { start: row?.start ?? Number.NaN, end: row?.end ?? Number.POSITIVE_INFINITY }];
          }),
        );
      }),
    fingerprint: () =>
      withLog(dataDir, (db) => String(db.prepare('SELECT max(position) FROM es_events').pluck().get())),
    close: () => Promise.resolve(),
  };
}

/**
 * The `es_events` table of the URL's schema (eventstore-postgres's schema.ts). `position` numbers
 * the events in insertion order: the order the proof compares rounds by, as it does SQLite's.
 */
function postgresEvents(eventStoreUrl: string): EventReader {
  const url = new URL(eventStoreUrl);
  const schema = url.searchParams.get('schema') ?? 'public';
  url.search = '';
  const pool = new pg.Pool({ connectionString: url.toString(), options: `-c search_path=${schema}`, max: 2 });
  pool.on('error', () => undefined);
  const rows = async <T extends unknown[]>(sql: string, values: unknown[] = []): Promise<T[]> =>
    (await pool.query<T>({ text: sql, values, rowMode: 'array' })).rows;
  const ended = `type IN ('RoundSettled', 'RoundCanceled')`;
  return {
    async openRounds() {
      const [[count] = [0]] = await rows<[number]>(
        `SELECT count(*)::int FROM (SELECT stream_id FROM es_events WHERE category = 'round-' GROUP BY stream_id
         HAVING count(*) FILTER (WHERE type = 'RoundStarted') > 0 AND count(*) FILTER (WHERE ${ended}) = 0) open`,
      );
      return count;
    },
    roundEnds: () =>
      rows<[string, number, number, number]>(
        `SELECT stream_id, count(*) FILTER (WHERE type = 'RoundStarted')::int, count(*) FILTER (WHERE type = 'RoundSettled')::int,
                count(*) FILTER (WHERE type = 'RoundCanceled')::int
         FROM es_events WHERE category = 'round-' GROUP BY stream_id`,
      ),
    async eventsOfTypes(types) {
      return (
        await rows<[string, Record<string, unknown>]>(
          'SELECT type, data FROM es_events WHERE type = ANY($1) ORDER BY position',
          [types],
        )
      ).map(([type, data]) => ({ type, data }));
    },
    async recoveryAttemptStreams() {
      return (
        await rows<[string]>(
          `SELECT stream_id FROM es_events WHERE category = 'walletTx-' AND type = 'WalletAttempted' AND data->'recovery' IN ('true'::jsonb, '1'::jsonb)`,
        )
      ).map(([stream]) => stream);
    },
    async roundSpans(roundIds) {
      const found = await rows<[string, string | null, string | null]>(
        `SELECT stream_id, min(position) FILTER (WHERE type = 'RoundStarted')::text, min(position) FILTER (WHERE ${ended})::text
         FROM es_events WHERE stream_id = ANY($1) GROUP BY stream_id`,
        [roundIds.map((roundId) => `round-${roundId}`)],
      );
      const byStream = new Map(found.map(([stream, start, end]) => [stream, { start, end }]));
      return new Map(
        roundIds.map((roundId) => {
          const row = byStream.get(`round-${roundId}`);
          return [
            roundId,
            {
              start: row?.start == null ? Number.NaN : Number(row.start),
              end: row?.end == null ? Number.POSITIVE_INFINITY : Number(row.end),
            },
          ];
        }),
      );
    },
    async fingerprint() {
      const [[last] = [null]] = await rows<[string | null]>('SELECT max(position)::text FROM es_events');
      return String(last);
    },
    close: () => pool.end(),
  };
}

/** The proof's own consumer group: it commits nothing, and the lag leaves it out. */
const PROOF_GROUP_PREFIX = 'replica-proof-reader-';

/**
 * Kafka through kafkajs: the admin client for the watermarks and the groups' committed offsets, and
 * one consumer of `wallet.requests`, started on the first read, that keeps every message it reads
 * from the high watermarks `markStart` found on; a read waits until it has read up to the high
 * watermarks of that moment.
 */
function kafkaBus(brokers: string): BusReader {
  const kafka = new Kafka({
    clientId: 'replica-proof',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
    retry: { retries: 8 },
  });
  let admin: Promise<Admin> | undefined;
  const connectedAdmin = () =>
    (admin ??= (async () => {
      const client = kafka.admin();
      await client.connect();
      return client;
    })());
  const read: PublishedRequest[] = [];
  /** Per partition of `wallet.requests`: its high watermark before the cluster started. */
  const before = new Map<number, bigint>();
  /** Per partition of `wallet.requests`: the next offset the consumer will read. */
  const next = new Map<number, bigint>();
  let consumer: Promise<Consumer> | undefined;
  const startedConsumer = () =>
    (consumer ??= (async () => {
      const started = kafka.consumer({ groupId: `${PROOF_GROUP_PREFIX}${randomUUID()}`, sessionTimeout: 10_000 });
      await started.connect();
      await started.subscribe({ topic: 'wallet.requests', fromBeginning: true });
      await started.run({
        autoCommit: false,
        eachMessage: async ({ partition, message }) => {
          if (BigInt(message.offset) >= (before.get(partition) ?? 0n))
            read.push({
              value: message.value?.toString('utf8') ?? 'null',
              timestamp: Number(message.timestamp),
              returned: message.headers?.[Headers.retryCount] !== undefined,
            });
          next.set(partition, BigInt(message.offset) + 1n);
          await Promise.resolve();
        },
      });
      return started;
    })());
  const topicsThere = async (topics: readonly string[]) => {
    const existing = new Set(await (await connectedAdmin()).listTopics());
    return topics.filter((topic) => existing.has(topic));
  };
  return {
    async markStart() {
      if ((await topicsThere(['wallet.requests'])).length === 0) return;
      for (const { partition, high } of await (await connectedAdmin()).fetchTopicOffsets('wallet.requests'))
        before.set(partition, BigInt(high));
    },
    async walletRequests() {
      const client = await connectedAdmin();
      if ((await topicsThere(['wallet.requests'])).length === 0) return [];
      await startedConsumer();
      const ends = await client.fetchTopicOffsets('wallet.requests');
      const deadline = Date.now() + 60_000;
      while (ends.some(({ partition, high, low }) => (next.get(partition) ?? BigInt(low)) < BigInt(high))) {
        if (Date.now() > deadline)
          throw new Error(`the proof's consumer did not reach the high watermarks of wallet.requests in 60 s`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Publish order: by timestamp (the partitions interleave), stable within a partition.
      return [...read].sort((a, b) => a.timestamp - b.timestamp);
    },
    async laggingPartitions() {
      const client = await connectedAdmin();
      const topics = await topicsThere(WALLET_TOPICS);
      if (topics.length === 0) return 0;
      const ends = new Map(
        await Promise.all(topics.map(async (topic) => [topic, await client.fetchTopicOffsets(topic)] as const)),
      );
      // The groups with members: the cluster's (all its replicas run while the proof reads), not the
      // groups earlier runs and suites left on the broker, which nobody will catch up.
      const listed = (await client.listGroups()).groups
        .map(({ groupId }) => groupId)
        .filter((groupId) => !groupId.startsWith(PROOF_GROUP_PREFIX));
      const active =
        listed.length === 0
          ? []
          : (await client.describeGroups(listed)).groups.filter(({ members }) => members.length > 0);
      let lagging = 0;
      for (const { groupId } of active) {
        for (const { topic, partitions } of await client.fetchOffsets({ groupId, topics })) {
          // As on SQLite: a group counts on the topics it has committed on.
          if (!partitions.some(({ offset }) => BigInt(offset) >= 0n)) continue;
          const committed = new Map(partitions.map(({ partition, offset }) => [partition, BigInt(offset)]));
          for (const { partition, high, low } of ends.get(topic) ?? []) {
            const at = committed.get(partition) ?? -1n;
            if (BigInt(high) > (at < 0n ? BigInt(low) : at)) lagging += 1;
          }
        }
      }
      return lagging;
    },
    async fingerprint() {
      const client = await connectedAdmin();
      const topics = (await client.listTopics()).filter((topic) => !topic.startsWith('__')).sort();
      const highs = await Promise.all(
        topics.map(async (topic) =>
          (await client.fetchTopicOffsets(topic)).reduce((sum, { high }) => sum + BigInt(high), 0n),
        ),
      );
      return String(highs.reduce((sum, high) => sum + high, 0n));
    },
    async close() {
      await Promise.all([
        consumer?.then((started) => started.disconnect()).catch(() => undefined),
        admin?.then((client) => client.disconnect()).catch(() => undefined),
      ]);
    },
  };
}

export interface ClusterLog {
  readonly bus: BusReader;
  readonly events: EventReader;
  close(): Promise<void>;
}

/** The readers of a cluster's bus and event log: its data dir's SQLite file, or its engines. */
export function openClusterLog(dataDir: string, engines: ReplicaEngines | undefined): ClusterLog {
  const bus = engines ? kafkaBus(engines.kafkaBrokers) : sqliteBus(dataDir);
  const events = engines ? postgresEvents(engines.eventStoreUrl) : sqliteEvents(dataDir);
  return {
    bus,
    events,
    async close() {
      await Promise.all([bus.close(), events.close()]);
    },
  };
}

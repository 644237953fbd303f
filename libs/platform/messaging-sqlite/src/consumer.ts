import {
  BusHeaders,
  defaultRetryDelayMs,
  type Consumer,
  type Headers,
  type ParkedMessage,
  type ParkedMessageObserver,
  type SubscribeOptions,
} from '@reelstream/platform-ports';
import { z } from 'zod';
import { deferred, Semaphore } from './async-tools.js';
import type { ChangeNotifier } from './change-notifier.js';
import type { Db } from './database.js';
import { GroupMembership, initialiseOffsets, type BalanceResult, type TopicPartition } from './group-membership.js';
import { AppendedRows, type LogWriter } from './log-writer.js';
import { OffsetCommitter, partitionKey } from './offset-committer.js';
import { heartbeatIntervalMs, type ResolvedBusOptions } from './options.js';
import { PartitionWorker, type LogRow } from './partition-worker.js';
import type { TopicRegistry } from './topics.js';

export interface SqliteSubscribeOptions extends SubscribeOptions {
  /**
   * Names this member in its group. A process restarted with the same id takes its unexpired
   * leases back at once instead of waiting for them to expire. Must be unique among the group's
   * live members: two live members with one id would share leases. Default: the bus's instance id
   * (then `id#2`, `id#3` for further consumers of the same group in this client).
   */
  memberId?: string;
  /** The only partitions of each topic this member takes (a reply listener reads its one). Default: all. */
  partitions?: readonly number[];
}

export interface ConsumerEnvironment {
  db: Db;
  writer: LogWriter;
  topics: TopicRegistry;
  notifier: ChangeNotifier;
  options: ResolvedBusOptions;
  onError: (error: unknown) => void;
  /** Told of every message parked on a dead-letter topic, after the park is committed. */
  onParked: ParkedMessageObserver;
}

const subscribeSchema = z.object({
  groupId: z.string().min(1).max(500),
  topics: z.array(z.string().min(1).max(249)).min(1),
  fromOffset: z.enum(['earliest', 'latest']).default('earliest'),
  maxAttempts: z.number().int().min(1).default(5),
  partitionsConsumedConcurrently: z.number().int().min(1).optional(),
  keyConcurrency: z.number().int().min(1).max(10_000).default(1),
});

const FETCH_BATCH = 100;
const MAX_REASON_LENGTH = 1_000;

interface Slot {
  worker: PartitionWorker;
  state: 'running' | 'releasing' | 'retiring';
}

function describeFailure(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > MAX_REASON_LENGTH ? `${text.slice(0, MAX_REASON_LENGTH)}…` : text;
}

function parseHeaders(json: string): Headers {
  try {
    return z.record(z.string(), z.string()).parse(JSON.parse(json));
  } catch {
    return {};
  }
}

/**
 * A consumer-group member on the SQLite log: owns partitions by lease, runs one worker per owned
 * partition, commits handled offsets (fenced by the lease), and rebalances on every heartbeat.
 */
export class SqliteConsumer implements Consumer {
  private readonly readiness = deferred<void>();
  readonly ready = this.readiness.promise;
  private readonly slots = new Map<string, Slot>();
  private readonly releases = new Set<Promise<void>>();
  private readonly committer: OffsetCommitter;
  private readonly semaphore: Semaphore | undefined;
  private readonly fetchRows;
  private readonly parkTransaction;
  private readonly heartbeatMs: number;
  private readonly rebalanceMs: number;
  private tickTimer: NodeJS.Timeout | undefined;
  private readyCap: NodeJS.Timeout | undefined;
  private unwatch: (() => void) | undefined;
  private readonly unwatchGroup: () => void;
  private stopping = false;
  private stopped: Promise<void> | undefined;
  private isReady = false;
  /** Until when the leases renewed by the last heartbeat certainly hold. */
  private leaseDeadline = 0;
  /** Partitions owned when the group was last balanced. */
  private balancedOwned = 0;

  static async start(
    env: ConsumerEnvironment,
    options: SqliteSubscribeOptions,
    memberId: string,
    onStopped: (c: SqliteConsumer) => void,
  ) {
    const parsed = subscribeSchema.parse(options);
    const topics = new Map<string, number>();
    env.db
      .transaction(() => parsed.topics.forEach((topic) => topics.set(topic, env.topics.partitionsOf(topic))))
      .immediate();
    // Fixed before `ready`: 'latest' means the end of the log when this member joined.
    initialiseOffsets(env.db, parsed.groupId, topics, parsed.fromOffset);
    const membership = new GroupMembership(
      env.db,
      parsed.groupId,
      memberId,
      topics,
      env.options.sessionTimeoutMs,
      options.partitions,
    );
    const partitionCount = [...topics.values()].reduce((sum, count) => sum + count, 0);
    const consumer = new SqliteConsumer(env, options, parsed, membership, partitionCount, onStopped);
    await consumer.begin();
    return consumer;
  }

  private constructor(
    private readonly env: ConsumerEnvironment,
    private readonly options: SqliteSubscribeOptions,
    private readonly limits: {
      maxAttempts: number;
      partitionsConsumedConcurrently?: number | undefined;
      keyConcurrency: number;
    },
    private readonly membership: GroupMembership,
    private readonly partitionCount: number,
    private readonly onStopped: (c: SqliteConsumer) => void,
  ) {
    const concurrency = limits.partitionsConsumedConcurrently;
    this.semaphore = concurrency === undefined ? undefined : new Semaphore(concurrency);
    this.heartbeatMs = heartbeatIntervalMs(env.options);
    this.rebalanceMs = Math.min(this.heartbeatMs, Math.max(20, 2 * env.options.pollIntervalMs));
    this.committer = new OffsetCommitter(
      membership,
      env.options.commitIntervalMs,
      (lost) => this.lose(lost),
      env.onError,
    );
    this.fetchRows = env.db.prepare<[string, number, number, number], LogRow>(
      `SELECT id, key, value, headers, timestamp FROM bus_messages
       WHERE topic = ? AND partition = ? AND id > ? ORDER BY id LIMIT ?`,
    );
    this.parkTransaction = env.db.transaction(
      (
        tp: TopicPartition,
        row: LogRow,
        position: number,
        deadLetterTopic: string,
        headers: Headers,
        parked: AppendedRows,
      ) => {
        if (membership.commitInTransaction([{ ...tp, position }]).length > 0) return false;
        env.writer.append(
          deadLetterTopic,
          [{ key: row.key, value: row.value, headers: JSON.stringify(headers) }],
          parked,
        );
        return true;
      },
    );
    this.unwatchGroup = env.notifier.onGroupChange((groupId) => {
      if (groupId === membership.groupId && !this.stopping) this.scheduleTick(0);
    });
  }

  get groupId(): string {
    return this.membership.groupId;
  }

  get memberId(): string {
    return this.membership.memberId;
  }

  /** Partitions this member works on right now (for tests and diagnostics). */
  get assignedPartitions(): TopicPartition[] {
    return [...this.slots.values()]
      .filter((slot) => slot.state === 'running')
      .map(({ worker }) => ({ topic: worker.topic, partition: worker.partition }));
  }

  /** Joined, not stopping, and the last heartbeat renewed the leases (a failing one lets them lapse). */
  get healthy(): boolean {
    return this.isReady && !this.stopping && Date.now() < this.leaseDeadline;
  }

  get share(): number {
    return this.partitionCount > 0 ? Math.min(1, this.balancedOwned / this.partitionCount) : 0;
  }

  stop(): Promise<void> {
    this.stopped ??= this.shutdown();
    return this.stopped;
  }

  private async begin(): Promise<void> {
    // Only the workers of the partitions that got messages fetch: a publish costs one query per group, not one per
    // owned partition (docs/performance.md).
    this.unwatch = await this.env.notifier.watch(this, this.env.options.pollIntervalMs, (partitions) => {
      if (partitions === null) {
        for (const { worker } of this.slots.values()) worker.notify();
        return;
      }
      for (const [topic, numbers] of partitions) {
        for (const partition of numbers) this.slots.get(partitionKey(topic, partition))?.worker.notify();
      }
    });
    this.readyCap = setTimeout(() => this.markReady(), this.env.options.sessionTimeoutMs + this.heartbeatMs);
    this.tick();
    this.env.notifier.announceGroupChange(this.groupId);
  }

  private scheduleTick(delayMs: number): void {
    clearTimeout(this.tickTimer);
    this.tickTimer = setTimeout(() => this.tick(), delayMs);
  }

  private tick(): void {
    this.tickTimer = undefined;
    if (this.stopping) return;
    let result: BalanceResult;
    const renewedAt = Date.now();
    try {
      result = this.membership.balance();
      this.leaseDeadline = renewedAt + this.env.options.sessionTimeoutMs;
    } catch (error) {
      this.env.onError(error);
      this.scheduleTick(this.heartbeatMs);
      return;
    }
    const surplus = new Set(result.surplus.map(({ topic, partition }) => partitionKey(topic, partition)));
    const owned = new Set<string>();
    for (const [topic, partitions] of result.owned) {
      for (const partition of partitions) {
        const key = partitionKey(topic, partition);
        owned.add(key);
        const slot = this.slots.get(key);
        if (surplus.has(key)) this.release(key, { topic, partition }, slot);
        else if (!slot) this.startWorker(key, topic, partition);
      }
    }
    for (const [key, slot] of this.slots) if (!owned.has(key) && slot.state === 'running') this.retire(key, slot);
    if (result.balanced) {
      this.balancedOwned = owned.size;
      this.markReady();
    }
    this.scheduleTick(result.balanced ? this.heartbeatMs : this.rebalanceMs);
  }

  private startWorker(key: string, topic: string, partition: number): void {
    const start = this.membership.committedPosition(topic, partition);
    const worker = new PartitionWorker(topic, partition, start, {
      handler: this.options.handler,
      maxAttempts: this.limits.maxAttempts,
      keyConcurrency: this.limits.keyConcurrency,
      retryDelayMs: this.options.retryDelayMs ?? defaultRetryDelayMs,
      semaphore: this.semaphore,
      leaseValid: () => Date.now() < this.leaseDeadline,
      fetch: (t, p, afterId) => this.fetchRows.all(t, p, afterId, FETCH_BATCH),
      fetchBatch: FETCH_BATCH,
      onHandled: (t, p, id) => this.committer.markHandled(t, p, id),
      park: (t, p, row, error, attempts, position) =>
        this.park({ topic: t, partition: p }, row, error, attempts, position),
      onError: this.env.onError,
    });
    const slot: Slot = { worker, state: 'running' };
    this.slots.set(key, slot);
    // A worker that ends on its own (lease lost while dead-lettering) is restarted by a later tick.
    void worker.done.then(() => {
      if (this.slots.get(key) !== slot || slot.state === 'releasing') return;
      this.slots.delete(key);
      if (!this.stopping) this.scheduleTick(this.rebalanceMs);
    });
  }

  /** Lost the lease (expired or taken): stop after the in-flight message; its commit would be fenced anyway. */
  private retire(key: string, slot: Slot): void {
    slot.state = 'retiring';
    this.committer.take(slot.worker.topic, slot.worker.partition);
    void slot.worker.stop();
  }

  private lose({ topic, partition }: TopicPartition): void {
    const key = partitionKey(topic, partition);
    const slot = this.slots.get(key);
    if (slot?.state === 'running') this.retire(key, slot);
    if (!this.stopping) this.scheduleTick(this.rebalanceMs);
  }

  /** Gives a surplus partition back once its in-flight message is done, committing it in the same transaction. */
  private release(key: string, tp: TopicPartition, slot: Slot | undefined): void {
    if (slot && slot.state !== 'running') return;
    if (slot) slot.state = 'releasing';
    const releasing = (async () => {
      await slot?.worker.stop();
      try {
        this.membership.release(tp, this.committer.take(tp.topic, tp.partition));
      } catch (error) {
        this.env.onError(error);
      }
      if (slot && this.slots.get(key) === slot) this.slots.delete(key);
      this.env.notifier.announceGroupChange(this.groupId);
    })();
    this.releases.add(releasing);
    void releasing.finally(() => this.releases.delete(releasing));
  }

  private park(tp: TopicPartition, row: LogRow, error: unknown, attempts: number, position: number): boolean {
    const deadLetterTopic = (this.options.deadLetterTopic ?? ((topic: string) => `${topic}.dlq`))(tp.topic);
    const headers: Headers = {
      ...parseHeaders(row.headers),
      [BusHeaders.deadLetterReason]: describeFailure(error),
      [BusHeaders.deadLetterAttempts]: String(attempts),
      [BusHeaders.originalTopic]: tp.topic,
      [BusHeaders.originalPartition]: String(tp.partition),
      [BusHeaders.originalOffset]: String(row.id),
    };
    const rows = new AppendedRows();
    const parked = this.parkTransaction.immediate(tp, row, position, deadLetterTopic, headers, rows);
    if (parked) {
      this.env.notifier.announce(rows);
      const reason = headers[BusHeaders.deadLetterReason] ?? '';
      this.reportParked({
        topic: tp.topic,
        partition: tp.partition,
        offset: String(row.id),
        key: row.key,
        deadLetterTopic,
        reason,
        attempts,
        groupId: this.groupId,
      });
    }
    return parked;
  }

  /** An observer's fault must not undo a park that is already committed, nor stop the worker. */
  private reportParked(parked: ParkedMessage): void {
    try {
      this.env.onParked(parked);
    } catch (error) {
      this.env.onError(error);
    }
  }

  private markReady(): void {
    if (this.isReady) return;
    this.isReady = true;
    clearTimeout(this.readyCap);
    this.readiness.resolve();
  }

  private async shutdown(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.tickTimer);
    this.unwatch?.();
    this.unwatchGroup();
    await Promise.all([...this.slots.values()].map(({ worker }) => worker.stop()));
    await Promise.all([...this.releases]);
    this.committer.flush();
    this.committer.close();
    try {
      this.membership.leave();
    } catch (error) {
      this.env.onError(error);
    }
    this.slots.clear();
    this.markReady();
    this.env.notifier.announceGroupChange(this.groupId);
    this.onStopped(this);
  }
}

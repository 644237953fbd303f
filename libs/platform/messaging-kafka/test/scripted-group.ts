/**
 * kafkajs's own consumer `Runner` (`kafkajs/src/consumer/runner.js`: fetch loop, workers, rejoin
 * checks, retrier, crash handling) driven against a scripted consumer group instead of a broker.
 * No Kafka server can run here; the group answers what a coordinator and a partition leader would:
 * fetches from a per-partition log, commits (with their metadata) into state that outlives one
 * "process", heartbeats, and rejoin errors when a test scripts them.
 */
import { createRequire } from 'node:module';
import type { EachBatchPayload } from 'kafkajs';

const require = createRequire(import.meta.url);

interface RunnerInstance {
  start(): Promise<void>;
  stop(): Promise<void>;
  commitOffsets(offsets: unknown): Promise<void>;
}
type RunnerClass = new (options: Record<string, unknown>) => RunnerInstance;
type BatchClass = new (topic: string, fetchedOffset: string, partitionData: Record<string, unknown>) => unknown;

const Runner = require('kafkajs/src/consumer/runner.js') as RunnerClass;
const Batch = require('kafkajs/src/consumer/batch.js') as BatchClass;
const InstrumentationEmitter = require('kafkajs/src/instrumentation/emitter.js') as new () => unknown;
const { createLogger, LEVELS } = require('kafkajs/src/loggers/index.js') as {
  createLogger(options: { level: number; logCreator: () => () => void }): unknown;
  LEVELS: Record<string, number>;
};
const { createErrorFromCode } = require('kafkajs/src/protocol/error.js') as {
  createErrorFromCode(code: number): Error & { type: string };
};

/** Kafka protocol error codes the tests script. */
export const ErrorCodes = { ILLEGAL_GENERATION: 22, UNKNOWN_MEMBER_ID: 25, REBALANCE_IN_PROGRESS: 27 } as const;
export const protocolError = (code: number) => createErrorFromCode(code);

export interface ScriptedRecord {
  key: string;
  value: unknown;
}

/** What the broker keeps across consumer processes: the log and the group's commits. */
export class BrokerState {
  readonly log: ScriptedRecord[] = [];
  readonly committed = new Map<number, { offset: string; metadata: string | null }>();
  commitRequests = 0;

  constructor(readonly topic: string) {}

  append(...records: ScriptedRecord[]): void {
    this.log.push(...records);
  }

  committedOffset(partition = 0): number {
    return Number(this.committed.get(partition)?.offset ?? '0');
  }
}

export interface GroupScript {
  /** Fails the n-th commit request (1-based) of this process with this error. */
  failCommit?: { nth: number; error: Error };
  /** From the n-th heartbeat of this process on, heartbeats fail with this error. */
  failHeartbeatFrom?: { nth: number; error: Error; times?: number };
  /** Records per fetch. Default 100. */
  maxBatch?: number;
}

/** One consumer process's view of the group: dies (stops reaching the broker) when told to. */
export class ScriptedGroup {
  readonly groupId = 'scripted-group';
  memberId: string | null = 'member-1';
  joins = 0;
  heartbeats = 0;
  commits = 0;
  dead = false;
  readonly resolved: string[] = [];
  private readonly position = new Map<number, number>();
  private paused = false;
  onJoin: () => void = () => undefined;

  constructor(
    readonly state: BrokerState,
    private readonly script: GroupScript = {},
  ) {}

  private alive(): void {
    if (this.dead) throw Object.assign(new Error('this process is dead'), { retriable: false });
  }

  async connect(): Promise<void> {
    this.alive();
  }

  async joinAndSync(): Promise<void> {
    this.alive();
    this.joins++;
    this.memberId ??= `member-${this.joins}`;
    // A (re)joined member fetches from the committed offsets, as after a real rebalance.
    this.position.clear();
    this.onJoin();
  }

  getNodeIds(): number[] {
    return [0];
  }

  async fetch(): Promise<unknown[]> {
    this.alive();
    if (this.paused) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return [];
    }
    const from = this.position.get(0) ?? this.state.committedOffset(0);
    const records = this.state.log.slice(from, from + (this.script.maxBatch ?? 100));
    if (records.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return [];
    }
    const messages = records.map((record, index) => ({
      offset: String(from + index),
      key: Buffer.from(record.key),
      value: Buffer.from(JSON.stringify(record.value)),
      headers: {},
      timestamp: '1767225600000',
      attributes: 0,
      isControlRecord: false,
      batchContext: {},
    }));
    return [
      new Batch(this.state.topic, String(from), {
        partition: 0,
        highWatermark: String(this.state.log.length),
        messages,
        abortedTransactions: [],
      }),
    ];
  }

  resolveOffset({ partition, offset }: { topic: string; partition: number; offset: string }): void {
    this.resolved.push(offset);
    this.position.set(partition, Number(offset) + 1);
  }

  async heartbeat(): Promise<void> {
    this.alive();
    this.heartbeats++;
    const failure = this.script.failHeartbeatFrom;
    if (
      failure &&
      this.heartbeats >= failure.nth &&
      (failure.times === undefined || this.heartbeats < failure.nth + failure.times)
    )
      throw failure.error;
  }

  async commitOffsets(offsets: {
    topics: { topic: string; partitions: { partition: number; offset: string; metadata?: string | null }[] }[];
  }): Promise<void> {
    this.alive();
    this.commits++;
    if (this.script.failCommit?.nth === this.commits) throw this.script.failCommit.error;
    this.state.commitRequests++;
    for (const { partitions } of offsets.topics) {
      for (const { partition, offset, metadata } of partitions)
        this.state.committed.set(partition, { offset, metadata: metadata ?? null });
    }
  }

  /** Only automatic commits go through here, and the adapter turns them off. */
  async commitOffsetsIfNecessary(): Promise<void> {
    return undefined;
  }
  uncommittedOffsets() {
    return { topics: [] };
  }
  hasSeekOffset(): boolean {
    return false;
  }
  /** The one partition is not fetched while paused (kafkajs's `pause`/`resume` of eachBatch). */
  pause(): void {
    this.paused = true;
  }
  resume(): void {
    this.paused = false;
  }
  isPaused(): boolean {
    return this.paused;
  }
  async leave(): Promise<void> {
    return undefined;
  }
}

export interface RunningRunner {
  runner: RunnerInstance;
  crashes: Error[];
  stop(): Promise<void>;
}

/** Starts kafkajs's real `Runner` on the scripted group with `eachBatch`, manual commits only. */
export async function runScripted(
  group: ScriptedGroup,
  eachBatch: (payload: EachBatchPayload) => Promise<void>,
): Promise<RunningRunner> {
  const crashes: Error[] = [];
  const runner = new Runner({
    logger: createLogger({ level: LEVELS['NOTHING'] ?? 0, logCreator: () => () => undefined }),
    consumerGroup: group,
    instrumentationEmitter: new InstrumentationEmitter(),
    eachBatchAutoResolve: false,
    concurrency: 1,
    eachBatch,
    heartbeatInterval: 10,
    onCrash: (error: Error) => crashes.push(error),
    retry: { retries: 3, initialRetryTime: 10, maxRetryTime: 50 },
    autoCommit: false,
  });
  await runner.start();
  return { runner, crashes, stop: () => runner.stop() };
}

export async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

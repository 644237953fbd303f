import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import type { MessageHandler } from '@reelstream/platform-ports';
import { attemptsSpent, encodeLedgerEntry, suspectUpTo, type LedgerEntry } from './attempt-ledger.js';
import { deliver, type AttemptHandler, type DeliveryEffects, type DeliveryOutcome } from './deliver.js';
import { forKafkajs } from './kafka-errors.js';
import { KeepAlive, abortableSleep, withDeadline } from './keep-alive.js';
import { fromKafkaMessage, nextCommitOffset } from './message-mapping.js';
import type { RetryPolicy } from './retry-policy.js';

export interface BatchSettings {
  handler: MessageHandler;
  policy: RetryPolicy;
  /** Records of one partition in handlers at once, never two of one key (the port's `keyConcurrency`). */
  keyConcurrency: number;
  /** An attempt still running after this long counts as failed (`HandlerTimeoutError`). */
  handlerTimeoutMs: number;
  heartbeatIntervalMs: number;
  /** False for reply listeners: they keep no position at all (every start reads from the end). */
  commits: boolean;
  /** Puts the record on its dead-letter topic and reports it; resolves once the broker has it. */
  park(topic: string, partition: number, record: KafkaMessage, reason: string, attempts: number): Promise<void>;
  /** What the partition's last owner left in its committed offset's metadata (see `attempt-ledger.ts`). */
  leftBehind(topic: string, partition: number): Promise<LedgerEntry | undefined>;
  onError(error: unknown): void;
  /** Aborts when the consumer stops. */
  stopping: AbortSignal;
}

/** The record offsets of a batch in order; tells how far the finished ones reach without a gap. */
class Progress {
  private readonly finished = new Set<string>();
  private next = 0;

  constructor(private readonly offsets: readonly string[]) {}

  /** Marks one finished; returns the last offset of the gap-free finished prefix when it grew. */
  finish(offset: string): string | undefined {
    this.finished.add(offset);
    const before = this.next;
    while (this.next < this.offsets.length && this.finished.has(this.offsets[this.next] ?? '')) this.next++;
    return this.next > before ? this.offsets[this.next - 1] : undefined;
  }

  get lastDone(): string | undefined {
    return this.next > 0 ? this.offsets[this.next - 1] : undefined;
  }

  /** The finished offsets past the gap-free prefix: fetched again after it, they are not to run again. */
  finishedBeyond(): string[] {
    return this.offsets.slice(this.next).filter((offset) => this.finished.has(offset));
  }
}

const keyOf = (record: KafkaMessage): string => (record.key === null ? '' : record.key.toString('utf8'));

/**
 * Works one kafkajs `eachBatch` payload (`eachBatchAutoResolve: false`, `autoCommit: false`).
 *
 * - Up to `keyConcurrency` records are in handlers at once, one per key, each key in offset order.
 * - `resolveOffset` (where the next fetch starts) and the commit only reach the end of the gap-free
 *   finished prefix, so nothing unfinished is ever committed; one commit per batch, not per record.
 * - Before a batch starts, its last offset is committed as metadata on the current position; after a
 *   takeover the records a dead owner had in flight run one at a time with their attempt counted
 *   durably first, so a record that kills the process is parked after `maxAttempts` deaths.
 * - A heartbeat every `heartbeatIntervalMs`; a rebalance or unknown-member answer stops new work, and
 *   so do `isRunning()`/`isStale()`. What finished is committed, then the error goes back to kafkajs
 *   unwrapped (it rejoins on it; wrapped, it would crash for good).
 */
export class BatchProcessor {
  /** Attempts made in this process on records not yet committed, by `topic/partition/offset`. */
  private readonly attempts = new Map<string, number>();
  /** Per partition, what the last owner left in flight, until the records it covers are done. */
  private readonly suspects = new Map<string, Promise<LedgerEntry | undefined>>();
  /**
   * Per partition, records handled past a deferred one (several keys at once): the partition is fetched
   * again from the deferred record, and these are marked done without running again.
   */
  private readonly finishedAhead = new Map<string, Set<string>>();

  constructor(private readonly settings: BatchSettings) {}

  /** The group was (re)joined: a partition may have had another owner meanwhile, so read its marks again. */
  onAssignment(): void {
    this.suspects.clear();
    this.finishedAhead.clear();
  }

  // Long because: commit, done and the handler loop share the batch's abort signal, keep-alive and progress (closures);
  // the commit-after-work order is easiest to check in one place.
  async process(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const { topic, partition, messages } = batch;
    if (messages.length === 0) return;
    const abort = new AbortController();
    // Only a lost partition abandons running handlers; a stop lets them finish and commits them.
    const revoked = new AbortController();
    const signals = { stop: abort.signal, revoked: revoked.signal };
    const onStop = () => abort.abort();
    this.settings.stopping.addEventListener('abort', onStop, { once: true });
    const keepAlive = new KeepAlive(payload.heartbeat, this.settings.heartbeatIntervalMs, this.settings.onError, () => {
      revoked.abort();
      abort.abort();
    });
    /**
     * A retry is not waited out inside the batch: that would hold every other partition kafkajs fetched
     * with it (it fetches a broker again only once the whole last fetch was worked). The record's
     * partition is paused for the delay instead and the record fetched again after it, with its attempts
     * counted in this process. With one record at a time the batch ends at once; with several keys at
     * once only the deferred key stops (its later records wait behind it), the other keys' records of
     * the batch go on, and those finished past the deferred one are remembered so they do not run twice.
     */
    let deferUntil: number | undefined;
    const defer = (delayMs: number) => {
      deferUntil = Math.max(deferUntil ?? 0, Date.now() + delayMs);
      return true;
    };
    const oneAtATime = this.settings.keyConcurrency === 1;
    const shouldStop = () =>
      abort.signal.aborted || (oneAtATime && deferUntil !== undefined) || !payload.isRunning() || payload.isStale();
    const progress = new Progress(messages.map((record) => record.offset));
    let failure: unknown;

    const commit = async (offset: string, metadata: string | null) => {
      if (!this.settings.commits) return;
      // kafkajs' types omit it, but the commit carries `metadata` to the broker (OffsetCommit's field).
      const position = { partition, offset, metadata };
      // Straight to the group's commit, not `consumer.commitOffsets`: that one goes through a retrier
      // that wraps rejoin errors and is silently skipped once the runner is stopping.
      await payload.commitOffsetsIfNecessary({ topics: [{ topic, partitions: [position] }] });
    };
    const done = (record: KafkaMessage) => {
      const reached = progress.finish(record.offset);
      if (reached !== undefined) payload.resolveOffset(reached);
    };

    try {
      const partitionKey = `${topic}/${partition}`;
      const suspect = this.settings.commits ? await this.suspectFor(partitionKey, topic, partition) : undefined;
      const upTo = suspectUpTo(suspect);
      const careful = upTo === undefined ? [] : messages.filter((record) => BigInt(record.offset) <= upTo);
      for (const record of careful) {
        if (shouldStop()) break;
        const offset = BigInt(record.offset);
        const outcome = await this.deliverRecord(
          topic,
          partition,
          record,
          attemptsSpent(suspect, offset),
          shouldStop,
          signals,
          defer,
          (attempt) => commit(record.offset, encodeLedgerEntry({ kind: 'attempts', offset, attempts: attempt })),
        );
        if (outcome.kind === 'deferred') break;
        if (outcome.kind === 'stopped') {
          // An abandoned attempt (revoked partition) is not counted: the mark goes back to the attempts
          // before it, while the member may still commit (best effort: one already out of the group cannot).
          if (revoked.signal.aborted)
            await commit(
              record.offset,
              encodeLedgerEntry({ kind: 'attempts', offset, attempts: outcome.attempts }),
            ).catch(this.settings.onError);
          break;
        }
        done(record);
      }
      const rest = messages.slice(careful.length);
      // The suspect range may run past this batch: it is done only once a record beyond it shows up.
      if (careful.length > 0 && progress.lastDone === careful.at(-1)?.offset && rest.length > 0)
        this.suspects.delete(partitionKey);
      const [firstOfRest] = rest;
      if (firstOfRest && progress.lastDone === careful.at(-1)?.offset && !shouldStop()) {
        const last = BigInt(rest.at(-1)?.offset ?? firstOfRest.offset);
        await commit(firstOfRest.offset, encodeLedgerEntry({ kind: 'in-flight', upTo: last }));
        const ahead = this.finishedAhead.get(partitionKey);
        const held = new Set<string>();
        await this.inLanes(rest, shouldStop, async (record) => {
          if (held.has(keyOf(record))) return;
          if (ahead?.delete(record.offset)) return done(record);
          const outcome = await this.deliverRecord(topic, partition, record, 0, shouldStop, signals, defer);
          if (outcome.kind === 'deferred') held.add(keyOf(record));
          else if (outcome.kind !== 'stopped') done(record);
        });
      }
    } catch (error) {
      failure = error;
    } finally {
      keepAlive.stop();
      this.settings.stopping.removeEventListener('abort', onStop);
    }

    const lastDone = progress.lastDone;
    if (lastDone !== undefined) {
      try {
        // No metadata: nothing of this batch is in flight any more up to here.
        await commit(nextCommitOffset(lastDone), null);
      } catch (error) {
        failure ??= error;
      }
    }
    this.rememberAhead(`${topic}/${partition}`, lastDone, deferUntil === undefined ? [] : progress.finishedBeyond());
    if (deferUntil !== undefined) {
      // Fetched again from the deferred record (nothing past the done prefix was resolved) once resumed.
      const resume = payload.pause();
      void abortableSleep(Math.max(0, deferUntil - Date.now()), this.settings.stopping).then(resume);
    }
    const lost = keepAlive.lost;
    if (lost) throw lost;
    if (failure !== undefined) throw forKafkajs(failure);
  }

  /**
   * Keeps what finished past a deferred record until it is fetched again; forgets what the partition's
   * done prefix has passed.
   */
  private rememberAhead(partitionKey: string, lastDone: string | undefined, offsets: readonly string[]): void {
    const ahead = this.finishedAhead.get(partitionKey) ?? new Set<string>();
    if (lastDone !== undefined)
      for (const offset of ahead) if (BigInt(offset) <= BigInt(lastDone)) ahead.delete(offset);
    for (const offset of offsets) ahead.add(offset);
    if (ahead.size === 0) this.finishedAhead.delete(partitionKey);
    else this.finishedAhead.set(partitionKey, ahead);
  }

  private suspectFor(partitionKey: string, topic: string, partition: number): Promise<LedgerEntry | undefined> {
    let suspect = this.suspects.get(partitionKey);
    if (!suspect) {
      suspect = this.settings.leftBehind(topic, partition);
      suspect.catch(() => this.suspects.delete(partitionKey));
      this.suspects.set(partitionKey, suspect);
    }
    return suspect;
  }

  private async deliverRecord(
    topic: string,
    partition: number,
    record: KafkaMessage,
    spentElsewhere: number,
    shouldStop: () => boolean,
    signals: { stop: AbortSignal; revoked: AbortSignal },
    defer: ((delayMs: number) => boolean) | undefined,
    beforeAttempt?: (attempt: number) => Promise<void>,
  ): Promise<DeliveryOutcome> {
    const { handler, handlerTimeoutMs, policy } = this.settings;
    const key = `${topic}/${partition}/${record.offset}`;
    const prior = Math.max(spentElsewhere, this.attempts.get(key) ?? 0);
    const effects: DeliveryEffects = {
      park: (reason, attempts) => this.settings.park(topic, partition, record, reason, attempts),
      sleep: (ms) => abortableSleep(ms, signals.stop),
      isStopping: shouldStop,
      abandoned: () => signals.revoked.aborted,
      ...(beforeAttempt ? { beforeAttempt } : {}),
      ...(defer ? { defer } : {}),
    };
    const bounded: AttemptHandler = (message, { attempt }) =>
      withDeadline(
        (attemptSignal) => handler(message, { attempt, signal: attemptSignal }),
        handlerTimeoutMs,
        signals.revoked,
      );
    const outcome = await deliver(fromKafkaMessage(topic, partition, record), bounded, policy, effects, prior);
    if (outcome.kind === 'stopped' || outcome.kind === 'deferred') this.attempts.set(key, outcome.attempts);
    else this.attempts.delete(key);
    return outcome;
  }

  /**
   * Runs `work` on the records, at most `keyConcurrency` at once and one per key, earlier offsets
   * first. Stops starting new records when `shouldStop()` or a record's work failed; resolves (or
   * rejects with the first failure) once nothing is running.
   */
  private inLanes(
    records: readonly KafkaMessage[],
    shouldStop: () => boolean,
    work: (record: KafkaMessage) => Promise<void>,
  ): Promise<void> {
    const limit = Math.max(1, this.settings.keyConcurrency);
    const waiting = [...records];
    const busy = new Set<string>();
    let running = 0;
    let failure: { error: unknown } | undefined;
    return new Promise((resolve, reject) => {
      const pump = () => {
        if (failure || shouldStop()) waiting.length = 0;
        for (let index = 0; index < waiting.length && running < limit;) {
          const record = waiting[index] as KafkaMessage;
          const key = keyOf(record);
          if (busy.has(key)) {
            index++;
            continue;
          }
          waiting.splice(index, 1);
          busy.add(key);
          running++;
          work(record)
            .catch((error: unknown) => {
              failure ??= { error };
            })
            .finally(() => {
              running--;
              busy.delete(key);
              pump();
            });
        }
        // Nothing running means nothing could start either: every waiting record was turned away.
        if (running === 0) {
          if (failure) reject(failure.error);
          else resolve();
        }
      };
      pump();
    });
  }
}

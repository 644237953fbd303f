/**
 * The adapter's batch processing inside kafkajs's real consumer Runner, against a scripted consumer
 * group (no Kafka broker can run here; see scripted-group.ts).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { KafkaMessage } from 'kafkajs';
import type { MessageHandler } from '@reelstream/platform-ports';
import { decodeLedgerEntry, readLedgerEntry } from '../src/attempt-ledger.js';
import { BatchProcessor, type BatchSettings } from '../src/batch-processor.js';
import { forKafkajs } from '../src/kafka-errors.js';
import { retryPolicy } from '../src/retry-policy.js';
import {
  BrokerState,
  ErrorCodes,
  ScriptedGroup,
  protocolError,
  runScripted,
  until,
  type RunningRunner,
} from './scripted-group.js';

interface Parked {
  offset: string;
  reason: string;
  attempts: number;
}

const running = new Set<RunningRunner>();
afterEach(async () => {
  await Promise.all([...running].map((runner) => runner.stop()));
  running.clear();
});

/** A processor as the consumer builds it, its ledger read from the scripted broker's commits. */
function processor(state: BrokerState, handler: MessageHandler, overrides: Partial<BatchSettings> = {}) {
  const parked: Parked[] = [];
  const stopping = new AbortController();
  const settings: BatchSettings = {
    handler,
    policy: retryPolicy({ maxAttempts: 3, retryDelayMs: () => 5 }),
    keyConcurrency: 1,
    handlerTimeoutMs: 5_000,
    heartbeatIntervalMs: 10,
    commits: true,
    park: async (_topic, _partition, record: KafkaMessage, reason, attempts) => {
      parked.push({ offset: record.offset, reason, attempts });
    },
    leftBehind: async () => decodeLedgerEntry(state.committed.get(0)?.metadata),
    onError: () => undefined,
    stopping: stopping.signal,
    ...overrides,
  };
  return { processor: new BatchProcessor(settings), parked, stopping };
}

async function start(group: ScriptedGroup, batchProcessor: BatchProcessor): Promise<RunningRunner> {
  group.onJoin = () => batchProcessor.onAssignment();
  const runner = await runScripted(group, (payload) => batchProcessor.process(payload));
  running.add(runner);
  return runner;
}

const records = (...keys: string[]) => keys.map((key, index) => ({ key, value: { n: index } }));

describe('Kafka consumer against a scripted consumer group (kafkajs Runner)', () => {
  it('rejoins instead of crashing when a commit is answered ILLEGAL_GENERATION, then redelivers and commits', async () => {
    const state = new BrokerState('wallet.requests');
    state.append(...records('op:a', 'op:b'));
    const group = new ScriptedGroup(state, {
      failCommit: { nth: 2, error: protocolError(ErrorCodes.ILLEGAL_GENERATION) },
    });
    const seen: string[] = [];
    const { processor: batches } = processor(state, async (message) => {
      seen.push(message.offset);
    });
    const runner = await start(group, batches);
    await until(() => state.committedOffset() === 2 && state.committed.get(0)?.metadata === null);
    expect(runner.crashes).toEqual([]);
    expect(group.joins).toBe(2);
    // The commit after the first pass failed, so both records came again after the rejoin.
    expect(seen).toEqual(['0', '1', '0', '1']);
  });

  it("crashes for good on kafkajs's wrapped commit error unless the adapter unwraps it (the consumer.commitOffsets path)", async () => {
    const state = new BrokerState('wallet.requests');
    state.append(...records('op:a'));
    const wrapped = new ScriptedGroup(state, {
      failCommit: { nth: 1, error: protocolError(ErrorCodes.REBALANCE_IN_PROGRESS) },
    });
    // `consumer.commitOffsets` commits through `runner.commitOffsets`, whose retrier wraps the error.
    const ofWrapped: { running?: RunningRunner } = {};
    const runnerOfWrapped = await runScripted(wrapped, async ({ batch }) => {
      await ofWrapped.running?.runner.commitOffsets({
        topics: [{ topic: batch.topic, partitions: [{ partition: 0, offset: '1' }] }],
      });
    });
    ofWrapped.running = runnerOfWrapped;
    running.add(runnerOfWrapped);
    await until(() => runnerOfWrapped.crashes.length > 0);
    expect(runnerOfWrapped.crashes[0]?.name).toBe('KafkaJSNonRetriableError');
    expect(wrapped.joins).toBe(1);

    const unwrapped = new ScriptedGroup(state, {
      failCommit: { nth: 1, error: protocolError(ErrorCodes.REBALANCE_IN_PROGRESS) },
    });
    const ofUnwrapped: { running?: RunningRunner } = {};
    const runnerOfUnwrapped = await runScripted(unwrapped, async ({ batch }) => {
      try {
        await ofUnwrapped.running?.runner.commitOffsets({
          topics: [{ topic: batch.topic, partitions: [{ partition: 0, offset: '1' }] }],
        });
      } catch (error) {
        throw forKafkajs(error);
      }
    });
    ofUnwrapped.running = runnerOfUnwrapped;
    running.add(runnerOfUnwrapped);
    await until(() => unwrapped.joins >= 2 && state.committedOffset() === 1);
    expect(runnerOfUnwrapped.crashes).toEqual([]);
  });

  it('stops a batch on a REBALANCE_IN_PROGRESS heartbeat, commits only what finished, and lets kafkajs rejoin', async () => {
    const state = new BrokerState('wallet.requests');
    state.append(...records('op:a', 'op:b', 'op:c', 'op:d'));
    const group = new ScriptedGroup(state, {
      failHeartbeatFrom: { nth: 2, error: protocolError(ErrorCodes.REBALANCE_IN_PROGRESS), times: 1 },
    });
    const seen: string[] = [];
    const { processor: batches } = processor(state, async (message) => {
      seen.push(message.offset);
      await new Promise((resolve) => setTimeout(resolve, 40));
    });
    const runner = await start(group, batches);
    await until(() => group.joins >= 2);
    // Commits made before the rejoin: the in-flight mark, then the end of what finished (not all four).
    const committedAtRejoin = state.committedOffset();
    expect(committedAtRejoin).toBeGreaterThanOrEqual(1);
    expect(committedAtRejoin).toBeLessThan(4);
    await until(() => state.committedOffset() === 4 && state.committed.get(0)?.metadata === null);
    expect(runner.crashes).toEqual([]);
    // Nothing is skipped: what was not committed came again after the rejoin.
    expect(new Set(seen)).toEqual(new Set(['0', '1', '2', '3']));
    expect(seen.slice(committedAtRejoin)).toContain('3');
  });

  it('waits out a retry delay with its partition paused, not inside the batch, and counts the attempts on', async () => {
    const state = new BrokerState('wallet.requests');
    state.append(...records('op:down', 'op:b'));
    const scripted = group(state);
    const attempts: { attempt: number; paused: boolean; at: number }[] = [];
    const handled: string[] = [];
    const { processor: batches, parked } = processor(
      state,
      async (message, { attempt }) => {
        if (message.key === 'op:down') {
          attempts.push({ attempt, paused: scripted.isPaused(), at: Date.now() });
          if (attempt < 3) throw new Error('wallet unreachable');
        }
        handled.push(message.key);
      },
      { policy: retryPolicy({ maxAttempts: 5, retryDelayMs: () => 100 }) },
    );
    const pausedSeen: boolean[] = [];
    const watch = setInterval(() => pausedSeen.push(scripted.isPaused()), 5);
    const runner = await start(scripted, batches);
    await until(() => state.committedOffset() === 2);
    clearInterval(watch);
    expect(attempts.map(({ attempt }) => attempt)).toEqual([1, 2, 3]);
    // Each retry came after its delay, fetched again once the partition was resumed.
    expect(pausedSeen).toContain(true);
    expect(attempts.every(({ paused }) => !paused)).toBe(true);
    for (let n = 1; n < attempts.length; n++)
      expect((attempts[n]?.at ?? 0) - (attempts[n - 1]?.at ?? 0)).toBeGreaterThanOrEqual(95);
    expect(handled).toEqual(['op:down', 'op:b']);
    expect(parked).toEqual([]);
    expect(runner.crashes).toEqual([]);
  });

  it('gives a hung handler a deadline: the attempt fails, the record is parked, and the partition moves on', async () => {
    const state = new BrokerState('wallet.requests');
    state.append(...records('op:hung', 'op:b'));
    const attempts: number[] = [];
    const handled: string[] = [];
    const { processor: batches, parked } = processor(
      state,
      async (message, { attempt }) => {
        if (message.key === 'op:hung') {
          attempts.push(attempt);
          await new Promise(() => undefined);
        }
        handled.push(message.key);
      },
      { handlerTimeoutMs: 50, policy: retryPolicy({ maxAttempts: 2, retryDelayMs: () => 1 }) },
    );
    const runner = await start(group(state), batches);
    await until(() => state.committedOffset() === 2);
    expect(attempts).toEqual([1, 2]);
    expect(parked).toEqual([
      { offset: '0', attempts: 2, reason: 'HandlerTimeoutError: the handler did not finish within 50 ms' },
    ]);
    expect(handled).toEqual(['op:b']);
    expect(runner.crashes).toEqual([]);
  });

  it("aborts the handler's signal when its deadline passes, with the timeout as the reason", async () => {
    const state = new BrokerState('wallet.requests');
    state.append(...records('op:hung'));
    const reasons: unknown[] = [];
    const { processor: batches } = processor(
      state,
      async (_message, { signal }) => {
        // Stands for the operator POST: it ends when its signal aborts.
        await new Promise<void>((_, reject) =>
          signal.addEventListener('abort', () => {
            reasons.push(signal.reason);
            reject(signal.reason as Error);
          }),
        );
      },
      { handlerTimeoutMs: 50, policy: retryPolicy({ maxAttempts: 2, retryDelayMs: () => 1 }) },
    );
    const runner = await start(group(state), batches);
    await until(() => state.committedOffset() === 1);
    expect(reasons.map((reason) => (reason as Error).name)).toEqual(['HandlerTimeoutError', 'HandlerTimeoutError']);
    expect(runner.crashes).toEqual([]);
  });

  it("aborts a running handler's signal when a heartbeat says the partition is being revoked", async () => {
    const state = new BrokerState('wallet.requests');
    state.append(...records('op:a'));
    const group = new ScriptedGroup(state, {
      failHeartbeatFrom: { nth: 2, error: protocolError(ErrorCodes.REBALANCE_IN_PROGRESS), times: 1 },
    });
    let aborted = 0;
    let runs = 0;
    const { processor: batches } = processor(state, async (_message, { signal }) => {
      runs++;
      if (runs > 1) return;
      await new Promise<void>((resolve) =>
        signal.addEventListener('abort', () => {
          aborted++;
          resolve();
        }),
      );
      throw new Error('the operator POST was aborted');
    });
    const runner = await start(group, batches);
    await until(() => state.committedOffset() === 1);
    expect(aborted).toBe(1);
    expect(runs).toBe(2);
    expect(runner.crashes).toEqual([]);
  });

  it('parks a record that kills its process after maxAttempts deaths, its attempts counted in commit metadata across restarts', async () => {
    const state = new BrokerState('wallet.requests');
    state.append(...records('op:a', 'op:poison', 'op:c'));
    let poisonRuns = 0;
    const handled: string[] = [];
    const parkedAll: Parked[] = [];
    for (let life = 1; life <= 6 && state.committedOffset() < 3; life++) {
      const group = new ScriptedGroup(state);
      const { processor: batches, stopping } = processor(
        state,
        async (message) => {
          if (message.key === 'op:poison') {
            poisonRuns++;
            // The process dies inside the handler: nothing it does afterwards reaches the broker.
            group.dead = true;
            stopping.abort();
            throw new Error('killed');
          }
          handled.push(`${life}:${message.key}`);
        },
        {
          policy: retryPolicy({ maxAttempts: 2, retryDelayMs: () => 1 }),
          // Parking goes to the broker too, which a dead process no longer reaches.
          park: async (_topic, _partition, record, reason, attempts) => {
            if (group.dead) throw new Error('this process is dead');
            parkedAll.push({ offset: record.offset, reason, attempts });
          },
        },
      );
      const runner = await start(group, batches);
      await until(() => group.dead || state.committedOffset() === 3);
      await runner.stop();
    }
    // One death before any count existed, then two counted ones: parked on the fourth life, unrun.
    expect(poisonRuns).toBe(3);
    expect(parkedAll).toEqual([
      { offset: '1', attempts: 2, reason: expect.stringContaining('stopped 2 times inside the handler') },
    ]);
    expect(state.committedOffset()).toBe(3);
    // Life 1 never committed its batch, so op:a ran again in life 2, whose careful pass committed it.
    expect(handled.filter((entry) => entry.endsWith(':op:a'))).toEqual(['1:op:a', '2:op:a']);
    expect(handled.at(-1)).toBe('4:op:c');
  });

  it('redelivers every record a dead owner had in flight one at a time with its attempt marked, even across several batches', async () => {
    const state = new BrokerState('wallet.requests');
    state.append(...records('op:a', 'op:b', 'op:c', 'op:d', 'op:e'));
    state.committed.set(0, { offset: '0', metadata: 'reelstream/1 in-flight 3' });
    const markSeen: string[] = [];
    const { processor: batches } = processor(state, async (message) => {
      markSeen.push(`${message.offset}:${state.committed.get(0)?.metadata ?? 'none'}`);
    });
    await start(new ScriptedGroup(state, { maxBatch: 2 }), batches);
    await until(() => state.committedOffset() === 5);
    expect(markSeen).toEqual([
      '0:reelstream/1 attempts 0 1',
      '1:reelstream/1 attempts 1 1',
      '2:reelstream/1 attempts 2 1',
      '3:reelstream/1 attempts 3 1',
      '4:reelstream/1 in-flight 4',
    ]);
  });

  it('commits once per batch, not once per record, and a reply listener commits nothing', async () => {
    const state = new BrokerState('wallet.requests');
    state.append(...records(...Array.from({ length: 50 }, (_, index) => `op:p${index}`)));
    const { processor: batches } = processor(state, async () => undefined);
    await start(new ScriptedGroup(state), batches);
    await until(() => state.committedOffset() === 50);
    // The in-flight mark before the batch and the position after it.
    expect(state.commitRequests).toBe(2);

    const replies = new BrokerState('bonus.replies');
    replies.append(...records('c1', 'c2', 'c3'));
    const settled: string[] = [];
    const { processor: listener } = processor(replies, async (message) => void settled.push(message.key), {
      commits: false,
    });
    const replyGroup = new ScriptedGroup(replies);
    await start(replyGroup, listener);
    await until(() => settled.length === 3);
    expect(replies.commitRequests).toBe(0);
    expect(replyGroup.resolved.at(-1)).toBe('2');
  });

  it('lets other keys pass a slow key (keyConcurrency) while the position never passes an unfinished record', async () => {
    const state = new BrokerState('wallet.requests');
    state.append(...records('op:slow', 'op:b', 'op:b', 'op:c', 'op:slow'));
    const order: string[] = [];
    let slowRunning = false;
    let passedWhileSlow = false;
    const group = new ScriptedGroup(state);
    const { processor: batches } = processor(
      state,
      async (message) => {
        if (message.key === 'op:slow' && message.offset === '0') {
          slowRunning = true;
          await new Promise((resolve) => setTimeout(resolve, 150));
          slowRunning = false;
        }
        if (slowRunning && group.resolved.length > 0) passedWhileSlow = true;
        order.push(`${message.key}@${message.offset}`);
      },
      { keyConcurrency: 3 },
    );
    await start(group, batches);
    await until(() => state.committedOffset() === 5);
    expect([...order.slice(0, 3)].sort()).toEqual(['op:b@1', 'op:b@2', 'op:c@3']);
    expect(order.indexOf('op:b@1')).toBeLessThan(order.indexOf('op:b@2'));
    expect(order.slice(3)).toEqual(['op:slow@0', 'op:slow@4']);
    expect(passedWhileSlow).toBe(false);
    expect(group.resolved).toEqual(['3', '4']);
  });

  it('defers a failing key out of the batch (keyConcurrency): the other keys finish once each, the key keeps its order', async () => {
    const state = new BrokerState('wallet.requests');
    state.append(...records('op:fail', 'op:b', 'op:fail', 'op:c', 'op:d'));
    const handled: string[] = [];
    const attempts: string[] = [];
    let pausedWhileFailing = false;
    const group = new ScriptedGroup(state);
    let pauses = 0;
    const pause = group.pause.bind(group);
    group.pause = () => {
      pauses++;
      pause();
    };
    const { processor: batches, parked } = processor(
      state,
      async (message) => {
        attempts.push(`${message.key}@${message.offset}`);
        if (
          message.key === 'op:fail' &&
          message.offset === '0' &&
          attempts.filter((a) => a === 'op:fail@0').length < 3
        ) {
          throw new Error('wallet unreachable for this player');
        }
        if (message.key === 'op:fail' && message.offset === '0') pausedWhileFailing = group.isPaused();
        handled.push(`${message.key}@${message.offset}`);
      },
      { keyConcurrency: 3, policy: retryPolicy({ maxAttempts: 5, retryDelayMs: () => 60 }) },
    );
    const runner = await start(group, batches);
    await until(() => state.committedOffset() === 5);
    expect(runner.crashes).toEqual([]);
    expect(parked).toEqual([]);
    // Every record handled once: the other keys' records were not run again when the partition was
    // fetched again from the deferred one.
    expect([...handled].sort()).toEqual(['op:b@1', 'op:c@3', 'op:d@4', 'op:fail@0', 'op:fail@2']);
    expect(handled.indexOf('op:fail@0')).toBeLessThan(handled.indexOf('op:fail@2'));
    // The other keys did not wait out the failing key's retries.
    expect(handled.slice(0, 3).sort()).toEqual(['op:b@1', 'op:c@3', 'op:d@4']);
    // The failing key's later record never ran before it, and the retries waited outside the batch.
    expect(attempts.filter((a) => a.startsWith('op:fail'))).toEqual([
      'op:fail@0',
      'op:fail@0',
      'op:fail@0',
      'op:fail@2',
    ]);
    expect(pausedWhileFailing).toBe(false);
    // Each of the two retry delays was waited out with the partition paused, the batch ended.
    expect(pauses).toBe(2);
    expect(group.resolved.at(-1)).toBe('4');
  });

  it('reads what a dead owner left in the committed metadata through the admin client', async () => {
    const admin = {
      fetchOffsets: async () => [
        { topic: 't', partitions: [{ partition: 0, offset: '7', metadata: 'reelstream/1 attempts 7 2' }] },
      ],
    };
    expect(await readLedgerEntry(admin as never, 'g', 't', 0)).toEqual({ kind: 'attempts', offset: 7n, attempts: 2 });
    expect(decodeLedgerEntry('reelstream/1 in-flight 12')).toEqual({ kind: 'in-flight', upTo: 12n });
    expect(decodeLedgerEntry('written by another client')).toBeUndefined();
  });
});

function group(state: BrokerState): ScriptedGroup {
  return new ScriptedGroup(state);
}

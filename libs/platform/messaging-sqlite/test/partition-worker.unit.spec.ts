import { describe, expect, it } from '@jest/globals';
import type { Message } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import { PartitionWorker, type LogRow, type PartitionWorkerDeps } from '../src/partition-worker.js';

/** A partition's rows in memory, fetched as the consumer fetches them (after an id, a page at a time), with the queries counted. */
function partitionLog(pageSize: number) {
  const rows: LogRow[] = [];
  const log = {
    fetches: 0,
    handled: [] as string[],
    append(key: string) {
      rows.push({ id: rows.length + 1, key, value: JSON.stringify(key), headers: '{}', timestamp: Date.now() });
    },
    deps(keyConcurrency: number): PartitionWorkerDeps {
      return {
        handler: async (message: Message) => {
          log.handled.push(message.key);
        },
        maxAttempts: 1,
        retryDelayMs: () => 0,
        semaphore: undefined,
        keyConcurrency,
        leaseValid: () => true,
        fetch: (_topic, _partition, afterId) => {
          log.fetches += 1;
          return rows.filter((row) => row.id > afterId).slice(0, pageSize);
        },
        fetchBatch: pageSize,
        onHandled: () => undefined,
        park: () => true,
        onError: (error) => {
          throw error;
        },
      };
    },
  };
  return log;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** Waits until the worker handed `count` messages to the handler. */
const handledAll = (log: ReturnType<typeof partitionLog>, count: number) =>
  eventually(() => {
    if (log.handled.length < count)
      throw new Error(`waited for the worker to handle ${count} messages; handled ${JSON.stringify(log.handled)}`);
  });

describe.each([1, 4])('a partition worker (keyConcurrency %i)', (keyConcurrency) => {
  it('queries the log once per announcement (and again after a full page), not when a handler finishing wakes it', async () => {
    const log = partitionLog(2);
    for (const key of ['a', 'b', 'c']) log.append(key);
    const worker = new PartitionWorker('t', 0, 0, log.deps(keyConcurrency));
    await handledAll(log, 3);
    expect(log.handled).toEqual(['a', 'b', 'c']);
    // A full page of 2, then the rest: two queries for three rows, none for the handlers' wake-ups.
    expect(log.fetches).toBe(2);

    // A fixed wait on purpose: the handlers finishing wake the worker within it, and it must not query the log again.
    await settle();
    expect(log.fetches).toBe(2);

    log.append('d');
    worker.notify();
    await handledAll(log, 4);
    // A fixed wait on purpose: d's handler finishing must not query the log again within it.
    await settle();
    expect(log.handled).toEqual(['a', 'b', 'c', 'd']);
    expect(log.fetches).toBe(3);
    await worker.stop();
  });
});

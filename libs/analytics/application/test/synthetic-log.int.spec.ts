/**
 * The synthetic log (tests and bench:replay) is a log that could have happened: written in several
 * calls it uses no id or token twice, and `strict` replay refuses a log that does (a second
 * WalletRequested in a transaction's stream, a second RoundStarted in a round's).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { eventToAppend, type DomainEvent } from '@reelstream/contracts';
import { AnalyticsFold } from '@reelstream/analytics-domain';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import type { EventStore } from '@reelstream/platform-ports';
import { replay, UnreadableEventError } from '../src/index.js';
import { writeSyntheticLog } from './synthetic-log.js';

const dir = mkdtempSync(join(tmpdir(), 'reelstream-synthetic-'));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const operators = [{ id: 'casino-eu', currency: 'EUR', timeZone: 'Europe/Berlin' }];
const newFold = () => new AnalyticsFold({ filter: {}, catalog: new Map(), timeZoneOf: () => 'UTC' });

async function twoBatches(store: SqliteEventStore): Promise<void> {
  let first = { id: 1_000, session: 0 };
  for (const seed of [1, 2]) {
    const written = await writeSyntheticLog(store, { operators, sessions: 12, roundsPerSession: 3, seed, first });
    first = written.next;
  }
}

/** Every event of a type, as its data. */
async function dataOf(store: SqliteEventStore, type: string): Promise<Record<string, unknown>[]> {
  const all = await store.readAll();
  return all.filter((event) => event.type === type).map((event) => event.data as Record<string, unknown>);
}

/** The store, its appends finishing after `delayMs(n)` for the n-th: sessions written at once take turns differently. */
function withSlowAppends(store: EventStore, delayMs: (n: number) => number): EventStore {
  let appends = 0;
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property !== 'append') return Reflect.get(target, property, receiver) as unknown;
      return async (...args: Parameters<EventStore['append']>) => {
        const result = await target.append(...args);
        await new Promise((resolve) => setTimeout(resolve, delayMs(appends++)));
        return result;
      };
    },
  });
}

/** What the log says, envelope ids aside: every stream's events (type, data, time) in order. */
async function contentOf(store: EventStore): Promise<string[]> {
  const all = await store.readAll();
  return all
    .map((event) =>
      JSON.stringify([event.streamId, event.revision, event.type, event.data, event.metadata['occurredAt']]),
    )
    .sort();
}

describe('the synthetic log', () => {
  it('is the same log for the same seed, however the appends of sessions written at once interleave', async () => {
    const options = { operators, sessions: 12, roundsPerSession: 4, seed: 7 };
    const written = [];
    const contents = [];
    for (const delayMs of [(n: number) => n % 3, (n: number) => (n * 7) % 5]) {
      const store = SqliteEventStore.open(join(dir, `log-${++files}.db`), { synchronous: 'NORMAL' });
      try {
        written.push(await writeSyntheticLog(withSlowAppends(store, delayMs), options));
        contents.push(await contentOf(store));
      } finally {
        await store.close();
      }
    }
    const [first, second] = written;
    expect(first?.events).toBeGreaterThan(300);
    expect(contents[1]).toEqual(contents[0]);
    expect(second).toEqual(first);
  });

  it('written in batches, uses every round, transaction, bonus id and token once, and replays strictly', async () => {
    const store = SqliteEventStore.open(join(dir, `log-${++files}.db`), { synchronous: 'NORMAL' });
    try {
      await twoBatches(store);
      for (const [type, key] of [
        ['RoundStarted', 'roundId'],
        ['WalletRequested', 'transactionId'],
        ['GameSessionStarted', 'token'],
        ['BonusCallRegistered', 'issueId'],
      ] as const) {
        const ids = (await dataOf(store, type)).map((data) => data[key]);
        expect(ids.length).toBeGreaterThan(5);
        expect(new Set(ids).size).toBe(ids.length);
      }
      await expect(replay({ store, fold: newFold(), validation: 'strict' })).resolves.toMatchObject({
        events: expect.any(Number),
      });
    } finally {
      await store.close();
    }
  });

  it('refuses to write a batch that reuses the ids of the one before', async () => {
    const store = SqliteEventStore.open(join(dir, `log-${++files}.db`), { synchronous: 'NORMAL' });
    try {
      await writeSyntheticLog(store, { operators, sessions: 4, roundsPerSession: 2, seed: 1 });
      await expect(writeSyntheticLog(store, { operators, sessions: 4, roundsPerSession: 2, seed: 2 })).rejects.toThrow(
        /expected revision no_stream/,
      );
    } finally {
      await store.close();
    }
  });
});

describe('strict replay refuses a log that could not have happened', () => {
  it.each([
    ['a second WalletRequested in a transaction’s stream', 'WalletRequested', 'walletTx-'],
    ['a second RoundStarted in a round’s stream', 'RoundStarted', 'round-'],
  ])('%s', async (_what, type, prefix) => {
    const store = SqliteEventStore.open(join(dir, `log-${++files}.db`), { synchronous: 'NORMAL' });
    try {
      await twoBatches(store);
      await expect(replay({ store, fold: newFold(), validation: 'strict' })).resolves.toBeDefined();
      // The first such event appended again to another stream of its kind, past any revision check.
      const events = await store.readAll();
      const original = events.find((event) => event.type === type);
      const other = events.find((event) => event.streamId.startsWith(prefix) && event.streamId !== original?.streamId);
      if (!original || !other) throw new Error(`the log has no two ${prefix} streams`);
      const context = {
        correlationId: randomUUID(),
        causationId: randomUUID(),
        operatorId: 'casino-eu',
        occurredAt: String(original.metadata['occurredAt']),
      };
      await store.append(
        other.streamId,
        [eventToAppend({ type: original.type, data: original.data } as DomainEvent, context)],
        { expectedRevision: 'any' },
      );
      const strict = replay({ store, fold: newFold(), validation: 'strict' });
      await expect(strict).rejects.toThrow(UnreadableEventError);
      await expect(replay({ store, fold: newFold(), validation: 'strict' })).rejects.toThrow(
        new RegExp(`${type} opens its stream but is at revision \\d+: an id was used twice`),
      );
    } finally {
      await store.close();
    }
  });
});

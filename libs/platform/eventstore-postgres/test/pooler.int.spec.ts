/**
 * The store behind PgBouncer in transaction pooling, as the production overlay runs it (CloudNativePG's
 * `Pooler`): a server connection is a client's for one transaction only, so nothing may rest on a
 * connection's session — no `search_path` (every statement names the schema), no session advisory lock,
 * no named prepared statement — and LISTEN goes straight to the server (`listen=host:port`).
 * The EventStore and lease contracts run through the pooler; then many processes' pools share its few
 * server connections. Debian's pgbouncer (.ci/run installs it); under CI=true a missing one fails.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RecordedEvent } from '@reelstream/platform-ports';
import {
  describeEventStoreContract,
  describeLeaseContract,
  findPgBouncer,
  postgresForTests,
  postgresNotice,
  startPgBouncer,
  type PgBouncerForTests,
  type PostgresForTests,
} from '@reelstream/testing';
import { openPostgresEventStore, type PostgresEventStore } from '../src/index.js';
import { leaseStoresAt } from './support/lease-stores.js';

const server = await postgresForTests();
const binary = findPgBouncer();
if (!binary && process.env['CI'] === 'true')
  throw new Error('pgbouncer is not installed: .ci/run installs Debian\u2019s pgbouncer');

const POOLED = 'postgres behind PgBouncer (transaction pooling)';
/** Server connections the pooler keeps per database and user, as the overlay's Pooler sets `default_pool_size`. */
const POOLER_SIZE = 3;
let started: Promise<PgBouncerForTests> | undefined;
const pooler = () =>
  (started ??= startPgBouncer(binary ?? 'pgbouncer', process.env['PG_URL'] ?? server?.server ?? '', {
    poolSize: POOLER_SIZE,
  }));
afterAll(async () => (await started)?.stop());

/** A schema of its own on the server, reached through the pooler; LISTEN goes to the server itself. */
async function pooledSchema(on: PostgresForTests, label: string, parameters: Record<string, string> = {}) {
  const { url, drop } = await on.schema(label);
  const direct = new URL(url);
  const pooled = new URL((await pooler()).through(url));
  pooled.searchParams.set('listen', direct.host);
  for (const [name, value] of Object.entries(parameters)) pooled.searchParams.set(name, value);
  return { url: pooled.toString(), drop };
}

if (server && binary) {
  describeEventStoreContract(async () => {
    const { url, drop } = await pooledSchema(server, 'pooled_contract');
    return { adapter: POOLED, url, open: () => openPostgresEventStore(url), dispose: drop };
  }, POOLED);

  describeLeaseContract(async () => {
    const { url, drop } = await pooledSchema(server, 'pooled_leases');
    return leaseStoresAt(POOLED, url, drop);
  }, POOLED);

  describe('many processes behind one pooler', () => {
    const stores: PostgresEventStore[] = [];
    const store = (n: number) => stores[n % stores.length] as PostgresEventStore;
    let drop: () => Promise<void> = async () => undefined;
    let url = '';

    beforeAll(async () => {
      // A poll this slow never wakes a subscription within the test: only a notification does.
      ({ url, drop } = await pooledSchema(server, 'pooled_many', { poolSize: '8', pollIntervalMs: '60000' }));
      for (let i = 0; i < 4; i++) stores.push((await openPostgresEventStore(url)).store);
    });
    afterAll(async () => {
      await Promise.all(stores.map((store) => store.close()));
      await drop();
    });

    it('appends of 4 pools of 8 to one stream take turns on its lock through 3 server connections: one event per revision', async () => {
      const streamId = `pooled-${randomUUID()}`;
      const event = (n: number) => ({ eventId: randomUUID(), type: 'Counted', data: { n } });
      let most = 0;
      const watching = setInterval(
        () => void pooler().then(async (p) => (most = Math.max(most, await p.serverConnections()))),
        20,
      );
      try {
        await Promise.all(
          Array.from({ length: 200 }, (_, n) => store(n).append(streamId, [event(n)], { expectedRevision: 'any' })),
        );
      } finally {
        clearInterval(watching);
      }
      const stored = await store(0).readStream(streamId);
      expect(stored.map((e) => e.revision)).toEqual(Array.from({ length: 200 }, (_, n) => n));
      expect(new Set(stored.map((e) => (e.data as { n: number }).n)).size).toBe(200);
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(POOLER_SIZE);
    });

    it('wakes a waiting subscription by a notification on the direct LISTEN connection, not by its poll', async () => {
      const prefix = `woken${randomUUID().slice(0, 8)}-`;
      const delivered: RecordedEvent[] = [];
      const subscription = store(1).subscribeToAll({ from: 'end', filter: { streamPrefixes: [prefix] } });
      const awaited = new Map<string, () => void>();
      const reading = (async () => {
        for await (const recorded of subscription) {
          delivered.push(recorded);
          awaited.get(recorded.streamId)?.();
        }
      })();
      const appended = async (n: number) => {
        const streamId = `${prefix}${n}`;
        const seen = new Promise<void>((resolve) => awaited.set(streamId, resolve));
        await store(2).append(streamId, [{ eventId: randomUUID(), type: 'Woken', data: { n } }], {
          expectedRevision: 'no_stream',
        });
        return seen;
      };
      // The LISTEN connection opens with the subscription's first wait: append until one is seen.
      for (let n = 0; delivered.length === 0; n++) {
        if (n === 100) throw new Error('100 appends, 200 ms apart, and the subscription saw none');
        await Promise.race([appended(n), new Promise((resolve) => setTimeout(resolve, 200))]);
      }
      const appendedAt = Date.now();
      await appended(1_000);
      const after = Date.now() - appendedAt;
      await subscription.close();
      await reading;
      expect(delivered.at(-1)?.streamId).toBe(`${prefix}1000`);
      expect(after).toBeLessThan(5_000);
    });

    it('with listen=off the subscription finds appends by its poll alone', async () => {
      const polling = new URL(url);
      polling.searchParams.set('listen', 'off');
      polling.searchParams.set('pollIntervalMs', '50');
      const { store: alone } = await openPostgresEventStore(polling.toString());
      const prefix = `polled${randomUUID().slice(0, 8)}-`;
      const subscription = alone.subscribeToAll({ from: 'end', filter: { streamPrefixes: [prefix] } });
      const seen: string[] = [];
      const reading = (async () => {
        for await (const recorded of subscription) if (seen.push(recorded.streamId) === 3) return;
      })();
      for (let n = 0; n < 3; n++)
        await store(n).append(`${prefix}${n}`, [{ eventId: randomUUID(), type: 'Polled', data: {} }], {
          expectedRevision: 'no_stream',
        });
      await reading;
      await subscription.close();
      await alone.close();
      expect(seen).toEqual([`${prefix}0`, `${prefix}1`, `${prefix}2`]);
    });

    it('outlives a pooler killed and started again: calls in flight may fail, the next ones reconnect, no event lost or doubled', async () => {
      const streamId = `restarted-${randomUUID()}`;
      const appendOne = (n: number) =>
        store(n).append(streamId, [{ eventId: randomUUID(), type: 'Counted', data: { n } }], {
          expectedRevision: 'any',
        });
      for (let n = 0; n < 20; n++) await appendOne(n);
      const [restarted, inFlight] = await Promise.all([
        (await pooler()).restart(),
        Promise.allSettled(Array.from({ length: 20 }, (_, n) => appendOne(20 + n))),
      ]);
      expect(restarted).toBeUndefined();
      // Afterwards every store's pool works again: its dropped connections are replaced on the next query.
      for (let n = 40; n < 60; n++) await appendOne(n);
      const stored = (await store(0).readStream(streamId)).map((e) => (e.data as { n: number }).n);
      // A failed one says the server was out of reach, retriable, as a caller's retry policy reads it.
      for (const outcome of inFlight)
        if (outcome.status === 'rejected')
          expect(outcome.reason).toMatchObject({ name: 'PostgresUnreachableError', retriable: true });
      const acknowledged = inFlight.flatMap((outcome, n) => (outcome.status === 'fulfilled' ? [20 + n] : []));
      process.stdout.write(
        `[pooler] killed under 20 appends: ${20 - acknowledged.length} failed, ${acknowledged.length} acknowledged\n`,
      );
      // What an append acknowledged is stored once; what failed may have been stored (its commit raced the kill) but once at most.
      expect(new Set(stored).size).toBe(stored.length);
      for (const n of [
        ...Array.from({ length: 20 }, (_, i) => i),
        ...acknowledged,
        ...Array.from({ length: 20 }, (_, i) => 40 + i),
      ])
        expect(stored).toContain(n);
      expect(stored.map((_, revision) => revision)).toEqual(
        (await store(1).readStream(streamId)).map((e) => e.revision),
      );
    });
  });
} else {
  process.stdout.write(
    server
      ? '[contract] PostgreSQL behind PgBouncer NOT run: pgbouncer is not installed (Debian\u2019s pgbouncer package).\n'
      : postgresNotice('PostgreSQL behind PgBouncer'),
  );
}

import type { CheckpointStore, EventStore, LeasesAndFencedCheckpoints } from '@reelstream/platform-ports';
import { openEsdbEventStore } from '@reelstream/platform-eventstore-esdb';
import { openPostgresEventStore, parsePostgresUrl } from '@reelstream/platform-eventstore-postgres';
import {
  SqliteCheckpointStore,
  SqliteEventStore,
  SqliteLeaseStore,
  type SqliteEventStoreOptions,
} from '@reelstream/platform-eventstore-sqlite';
import { z } from 'zod';
import { ensureParentDirectory, parseSqliteUrl, unsupportedScheme, type SqliteUrl } from './sqlite-url.js';

export interface OpenedEventStore {
  store: EventStore;
  checkpoints: CheckpointStore;
  /** Leases of singleton workers and their fenced checkpoints, in the same back end. */
  leases: LeasesAndFencedCheckpoints;
}

const integer = z.coerce.number().int().nonnegative();
/** Tuning a `sqlite:` URL may carry as query parameters, e.g. `sqlite:./data/reelstream.db?synchronous=NORMAL`. */
const sqliteQuerySchema = z
  .object({
    synchronous: z.enum(['FULL', 'NORMAL']).optional(),
    busyTimeoutMs: integer.optional(),
    pollIntervalMs: integer.optional(),
  })
  .strict();

export type SqliteEventStoreUrl = SqliteUrl<SqliteEventStoreOptions>;

export function parseSqliteEventStoreUrl(url: string): SqliteEventStoreUrl {
  return parseSqliteUrl(url, 'EVENT_STORE_URL', sqliteQuerySchema) as SqliteEventStoreUrl;
}

/** Checks a `postgres://` URL without connecting: a bad schema or pool size is a configuration error. */
export function parsePostgresEventStoreUrl(url: string): void {
  parsePostgresUrl(url);
}

/** Opens the event store named by `EVENT_STORE_URL` (`sqlite:<path>`, `postgres://…` or `esdb://…`). */
export async function openEventStore(url: string): Promise<OpenedEventStore> {
  if (url.startsWith('sqlite:')) {
    const { path, options } = parseSqliteEventStoreUrl(url);
    ensureParentDirectory(path);
    const store = SqliteEventStore.open(path, options);
    // Same connection: a checkpoint and the store's events live in one file.
    return {
      store,
      checkpoints: new SqliteCheckpointStore(store.database),
      leases: new SqliteLeaseStore(store.database),
    };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgresEventStore(url);
  if (/^esdb(\+discover)?:\/\//.test(url)) return openEsdbEventStore(url);
  throw unsupportedScheme(
    'EVENT_STORE_URL',
    url,
    'sqlite:<path>, postgres://user@host:5432/database or esdb://host:2113?tls=false',
  );
}

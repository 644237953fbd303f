import { randomUUID } from 'node:crypto';
import { replyNumberOf } from '@reelstream/platform-ports';
import { z } from 'zod';

const sqliteBusOptionsSchema = z.object({
  /** Names this process in consumer groups (default member id) and reply routing. Default: a random id. */
  instanceId: z.string().min(1).max(200).optional(),
  /**
   * Picks the one partition of each reply topic this client reads (`replyPartitionOf`): the process's
   * worker id. Default: a hash of the instance id.
   */
  replyNumber: z.number().int().min(0).optional(),
  /** Partitions of a topic created by this client; a topic keeps the count it was created with. */
  partitions: z.number().int().min(1).max(1024).default(16),
  /** FULL: a resolved publish survives power loss. NORMAL (WAL) may lose the last commits on power loss. */
  synchronous: z.enum(['FULL', 'NORMAL']).default('FULL'),
  /** How often other processes' writes are looked for (`PRAGMA data_version`, no table scan). */
  pollIntervalMs: z.number().int().min(1).max(10_000).default(20),
  /** Lease length: a member that stops heartbeating loses its partitions after this long. */
  sessionTimeoutMs: z.number().int().min(100).max(600_000).default(10_000),
  /** How long a write waits for another process's write transaction before failing. */
  busyTimeoutMs: z.number().int().min(0).max(600_000).default(5_000),
  /** Handled offsets are committed at most this long after the handler finished (coalesced). */
  commitIntervalMs: z.number().int().min(0).max(10_000).default(5),
});

export type SqliteMessageBusOptions = z.input<typeof sqliteBusOptionsSchema>;

export interface ResolvedBusOptions extends Required<
  Omit<z.output<typeof sqliteBusOptionsSchema>, 'instanceId' | 'replyNumber'>
> {
  instanceId: string;
  replyNumber: number;
}

export function resolveBusOptions(options: SqliteMessageBusOptions = {}): ResolvedBusOptions {
  const parsed = sqliteBusOptionsSchema.parse(options);
  const instanceId = parsed.instanceId ?? `bus-${randomUUID()}`;
  return { ...parsed, instanceId, replyNumber: parsed.replyNumber ?? replyNumberOf(instanceId) };
}

/** Heartbeats renew member rows and leases several times per session so one late timer loses nothing. */
export function heartbeatIntervalMs(options: ResolvedBusOptions): number {
  return Math.max(20, Math.min(1_000, Math.floor(options.sessionTimeoutMs / 5)));
}

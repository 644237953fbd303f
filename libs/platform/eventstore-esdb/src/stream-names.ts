import type { StreamFilter } from '@reelstream/platform-ports';

/** Streams that hold checkpoints, not domain events: `$all` readers of the port never see them. */
const CHECKPOINT_STREAM_PREFIX = 'checkpoint-';

export function checkpointStreamId(name: string): string {
  return `${CHECKPOINT_STREAM_PREFIX}${name}`;
}

/** Streams that hold a lease and its fenced checkpoint (docs/adr/0005-leases-and-fencing.md): hidden from `$all` readers too. */
const LEASE_STREAM_PREFIX = 'lease-';

export function leaseStreamId(name: string): string {
  return `${LEASE_STREAM_PREFIX}${name}`;
}

/** EventStoreDB's own streams (`$stats-…`, `$$metadata`, projections' `$ce-…`) and event types start with `$`. */
export function isSystemEvent(streamId: string, type: string): boolean {
  return streamId.startsWith('$') || type.startsWith('$');
}

/** What a `$all` reader of the port may see: no system events, no checkpoints, only the filter's prefixes. */
export function isVisibleInAll(streamId: string, type: string, filter?: StreamFilter): boolean {
  if (
    isSystemEvent(streamId, type) ||
    streamId.startsWith(CHECKPOINT_STREAM_PREFIX) ||
    streamId.startsWith(LEASE_STREAM_PREFIX)
  )
    return false;
  const prefixes = filter?.streamPrefixes;
  if (prefixes === undefined) return true;
  return prefixes.some((prefix) => streamId.startsWith(prefix));
}

/**
 * The server-side stream-name regex a subscription uses without a prefix filter: everything except
 * system streams, checkpoint streams and lease streams (the client filters the same again, see `isVisibleInAll`).
 */
export const USER_STREAMS_REGEX = `^(?!\\$|${CHECKPOINT_STREAM_PREFIX}|${LEASE_STREAM_PREFIX})`;

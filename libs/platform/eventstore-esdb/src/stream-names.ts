import type { StreamFilter } from '@reelstream/ports';

/** Streams that hold checkpoints, not domain events: `$all` readers of the port never see them. */
const CHECKPOINT_STREAM_PREFIX = 'checkpoint-';

export function checkpointStreamId(name: string): string {
  return `${CHECKPOINT_STREAM_PREFIX}${name}`;
}

/** EventStoreDB's own streams (`$stats-…`, `$$metadata`, projections' `$ce-…`) and event types start with `$`. */
export function isSystemEvent(streamId: string, type: string): boolean {
  return streamId.startsWith('$') || type.startsWith('$');
}

/** What a `$all` reader of the port may see: no system events, no checkpoints, only the filter's prefixes. */
export function isVisibleInAll(streamId: string, type: string, filter?: StreamFilter): boolean {
  if (isSystemEvent(streamId, type) || streamId.startsWith(CHECKPOINT_STREAM_PREFIX)) return false;
  const prefixes = filter?.streamPrefixes;
  if (prefixes === undefined) return true;
  return prefixes.some((prefix) => streamId.startsWith(prefix));
}

/**
 * The server-side stream-name regex a subscription uses without a prefix filter: everything except
 * system streams and checkpoint streams (the client filters the same again, see `isVisibleInAll`).
 */
export const USER_STREAMS_REGEX = `^(?!\\$|${CHECKPOINT_STREAM_PREFIX})`;

/**
 * Deterministic event ids: a hash of the stream, the revision appended after and the events
 * themselves, written as a UUID (version 8, RFC 9562). Retrying an append that did commit is
 * then recognised by the store as the same append; a different append at the same revision
 * has other ids and fails its expected-revision check instead of passing for a retry.
 */
import { createHash } from 'node:crypto';

export function deterministicEventId(
  streamId: string,
  afterRevision: number | 'no_stream',
  index: number,
  type: string,
  data: unknown,
): string {
  const hex = createHash('sha256')
    .update(`${streamId}\u0000${String(afterRevision)}\u0000${index}\u0000${type}\u0000${JSON.stringify(data)}`)
    .digest('hex');
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

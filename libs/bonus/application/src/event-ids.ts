/**
 * Deterministic event ids: the same command deciding the same events at the same expected
 * revision gets the same ids, so a retried append is recognised by the store as the same
 * append (idempotent), while any other event gets an id of its own.
 */
import { createHash } from 'node:crypto';
import type { ExpectedRevision } from '@reelstream/ports';

export function deterministicEventId(
  commandId: string,
  streamId: string,
  expected: ExpectedRevision,
  index: number,
  event: { type: string; data: unknown },
): string {
  const digest = createHash('sha256')
    .update(
      `${commandId}\u0000${streamId}\u0000${String(expected)}\u0000${index}\u0000${event.type}\u0000${JSON.stringify(event.data)}`,
    )
    .digest();
  // RFC 9562 layout: version 8 (custom), variant 10.
  digest[6] = ((digest[6] as number) & 0x0f) | 0x80;
  digest[8] = ((digest[8] as number) & 0x3f) | 0x80;
  const hex = digest.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

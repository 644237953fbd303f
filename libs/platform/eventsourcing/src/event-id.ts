/**
 * The one deterministic event-id scheme: a SHA-256 of (commandId, streamId, expected revision,
 * index in the append, type, data), written as a UUID (version 8, RFC 9562).
 *
 * Why these inputs. A retried append (the store committed it but the writer did not hear back, or
 * a redelivered message decided again on the same state) carries the same command id and the same
 * events at the same expected revision, so it gets the same ids and the store answers it as the
 * append it already holds (idempotent) instead of writing the events twice. Any other append at
 * that revision differs in at least one input, gets other ids and fails its expected-revision
 * check as a real conflict. The command id is what a retry keeps: the bonus ledger's command id
 * from the gateway, the dispatcher's bus message position (topic:partition:offset), which a
 * redelivery keeps. It must never be drawn afresh per attempt.
 */
import { createHash } from 'node:crypto';
import type { ExpectedRevision } from '@reelstream/platform-ports';

export function deterministicEventId(
  commandId: string,
  streamId: string,
  expected: ExpectedRevision,
  index: number,
  event: { type: string; data: unknown },
): string {
  return eventIdOfJson(commandId, streamId, expected, index, event.type, JSON.stringify(event.data));
}

/** The same id, from the event's data already written as JSON (the command handler writes it once). */
export function eventIdOfJson(
  commandId: string,
  streamId: string,
  expected: ExpectedRevision,
  index: number,
  type: string,
  dataJson: string,
): string {
  const digest = createHash('sha256')
    .update(`${commandId}\u0000${streamId}\u0000${String(expected)}\u0000${index}\u0000${type}\u0000${dataJson}`)
    .digest();
  digest[6] = ((digest[6] as number) & 0x0f) | 0x80;
  digest[8] = ((digest[8] as number) & 0x3f) | 0x80;
  const hex = digest.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

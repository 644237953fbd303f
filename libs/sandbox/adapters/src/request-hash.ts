/**
 * What makes two callbacks "the same transaction": every field but `timestamp`, with ids as
 * numbers whichever encoding they came in (D7). A retry that stamps a new time is still a
 * replay; the same transactionId with another amount, player or round is a reused id.
 */
import { createHash } from 'node:crypto';
import { canonicalJson, type CallbackRequest } from '@reelstream/contracts';

export function requestHash(callback: CallbackRequest): string {
  const { timestamp: _timestamp, ...identity } = callback;
  return createHash('sha256').update(canonicalJson(identity)).digest('hex');
}

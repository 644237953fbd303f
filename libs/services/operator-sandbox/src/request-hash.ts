/**
 * What makes two callbacks "the same transaction": every field but `timestamp`, with ids as
 * numbers whichever encoding they came in (D7). A retry that stamps a new time is still a
 * replay; the same transactionId with another amount, player or round is a reused id.
 */
import { createHash } from 'node:crypto';
import type { CallbackRequest } from '@reelstream/contracts';

function canonical(value: unknown): string {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonical(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function requestHash(callback: CallbackRequest): string {
  const { timestamp: _timestamp, ...identity } = callback;
  return createHash('sha256').update(canonical(identity)).digest('hex');
}

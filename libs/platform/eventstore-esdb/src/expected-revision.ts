import { ANY, NO_STREAM, STREAM_EXISTS, type AppendExpectedRevision } from '@eventstore/db-client';
import type { ExpectedRevision, StreamRevision } from '@reelstream/platform-ports';

/** Maps the port's expected revision onto the client's: the keywords by name, a revision as a bigint. */
export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    case 'any':
      return ANY;
    default:
      return toEsdbRevision(expected);
  }
}

/** A port revision as the client's bigint; refuses negatives and fractions before they reach the server. */
export function toEsdbRevision(revision: number): bigint {
  if (!Number.isSafeInteger(revision) || revision < 0) {
    throw new RangeError(`a stream revision must be a non-negative integer, got ${String(revision)}`);
  }
  return BigInt(revision);
}

/** A bigint revision from the server as the port's number; refuses what a number cannot hold exactly. */
export function toPortRevision(revision: bigint): number {
  if (revision < 0n || revision > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`stream revision ${revision} does not fit the port's revision type`);
  }
  return Number(revision);
}

/**
 * Whether a stream whose last revision is `current` (`undefined`: no stream) satisfies `expected`.
 * The server checks real appends; an append of nothing never reaches it, so this checks it here.
 */
export function satisfiesExpectedRevision(expected: ExpectedRevision, current: StreamRevision | undefined): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return current === undefined;
    case 'stream_exists':
      return current !== undefined;
    default:
      return expected === current;
  }
}

import { ErrorType, isCommandError } from '@eventstore/db-client';
import { WrongExpectedRevisionError, type ExpectedRevision } from '@reelstream/platform-ports';
import { toPortRevision } from './expected-revision.js';

function commandErrorOfType(error: unknown, type: ErrorType): boolean {
  return error instanceof Error && isCommandError(error) && error.type === type;
}

/** Reading a stream that was never written (or was soft-deleted) throws this; the port reads it as empty. */
export function isStreamNotFound(error: unknown): boolean {
  return commandErrorOfType(error, ErrorType.STREAM_NOT_FOUND);
}

export function isAccessDenied(error: unknown): boolean {
  return commandErrorOfType(error, ErrorType.ACCESS_DENIED);
}

export function isWrongExpectedVersion(error: unknown): boolean {
  return commandErrorOfType(error, ErrorType.WRONG_EXPECTED_VERSION);
}

/**
 * Translates an append failure into the port's vocabulary: an optimistic-concurrency conflict becomes
 * `WrongExpectedRevisionError` carrying the stream's actual revision; anything else passes through.
 */
export function toPortAppendError(error: unknown, streamId: string, expected: ExpectedRevision): unknown {
  if (!isWrongExpectedVersion(error)) return error;
  const actual = (error as { actualVersion?: unknown }).actualVersion;
  const portActual = typeof actual === 'bigint' ? toPortRevision(actual) : 'no_stream';
  return new WrongExpectedRevisionError(streamId, expected, portActual);
}

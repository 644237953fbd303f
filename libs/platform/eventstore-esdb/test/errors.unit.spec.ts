import { describe, expect, it } from '@jest/globals';
import { AccessDeniedError, StreamNotFoundError, WrongExpectedVersionError } from '@eventstore/db-client';
import { WrongExpectedRevisionError, isWrongExpectedRevision } from '@reelstream/platform-ports';
import { isAccessDenied, isStreamNotFound, toPortAppendError } from '../src/errors.js';

describe('append error mapping', () => {
  it('turns a wrong expected version into the port error with the actual revision', () => {
    const clientError = new WrongExpectedVersionError(undefined, { streamName: 'round-1', expected: 2n, current: 5n });
    const mapped = toPortAppendError(clientError, 'round-1', 2);
    expect(mapped).toBeInstanceOf(WrongExpectedRevisionError);
    expect(isWrongExpectedRevision(mapped)).toBe(true);
    expect(mapped).toMatchObject({ streamId: 'round-1', expected: 2, actual: 5 });
    expect((mapped as Error).message).toBe('stream round-1: expected revision 2, actual 5');
  });

  it('reports a stream that does not exist as no_stream', () => {
    const clientError = new WrongExpectedVersionError(undefined, {
      streamName: 'round-2',
      expected: 'stream_exists',
      current: 'no_stream',
    });
    expect(toPortAppendError(clientError, 'round-2', 'stream_exists')).toMatchObject({
      expected: 'stream_exists',
      actual: 'no_stream',
    });
  });

  it('passes every other error through untouched', () => {
    const other = new Error('connection reset');
    expect(toPortAppendError(other, 's', 'any')).toBe(other);
    expect(toPortAppendError('not even an error', 's', 'any')).toBe('not even an error');
  });

  it('recognises a missing stream', () => {
    expect(isStreamNotFound(new StreamNotFoundError(undefined, 'session-x'))).toBe(true);
    expect(
      isStreamNotFound(new WrongExpectedVersionError(undefined, { streamName: 's', expected: 0n, current: 1n })),
    ).toBe(false);
    expect(isStreamNotFound(new Error('stream not found'))).toBe(false);
    expect(isStreamNotFound(undefined)).toBe(false);
  });

  it('recognises a refusal for lack of rights', () => {
    expect(isAccessDenied(new AccessDeniedError())).toBe(true);
    expect(isAccessDenied(new StreamNotFoundError(undefined, 's'))).toBe(false);
  });
});

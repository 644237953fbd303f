import { describe, expect, it } from '@jest/globals';
import { ErrorCatalogue } from './catalogue.js';
import { isRefusal, isRefusedError, isRetriable, ReelstreamError, RefusedError, refusal } from './reelstream-error.js';

describe('Refusal and ReelstreamError: one shape, a catalogue code and a retriable flag', () => {
  it('builds a refusal with the catalogue message, no details, not retriable by default', () => {
    expect(refusal('GAME_NOT_FOUND')).toEqual({
      type: 'Refusal',
      code: 'GAME_NOT_FOUND',
      message: ErrorCatalogue.GAME_NOT_FOUND.message,
      retriable: false,
    });
    const detailed = refusal('GAME_NOT_FOUND', 'no game 7', { details: [{ path: 'gameId', message: 'no game 7' }] });
    expect(detailed.details).toEqual([{ path: 'gameId', message: 'no game 7' }]);
    expect(isRefusal(detailed)).toBe(true);
    expect(isRefusal({ code: 'GAME_NOT_FOUND' })).toBe(false);
    expect(isRefusal([])).toBe(false);
  });

  it('throws the same fields and turns back into the same refusal', () => {
    const refused = refusal('WALLET_TX_SETTLED', 'transaction 5 is already succeeded');
    const error = RefusedError.from(refused);
    expect(error).toBeInstanceOf(ReelstreamError);
    expect({ code: error.code, message: error.message, retriable: error.retriable }).toEqual({
      code: 'WALLET_TX_SETTLED',
      message: 'transaction 5 is already succeeded',
      retriable: false,
    });
    expect(error.toRefusal()).toEqual(refused);
    const cause = new Error('socket hang up');
    expect(new ReelstreamError('SERVICE_UNAVAILABLE', undefined, { retriable: true, cause }).cause).toBe(cause);
  });

  it('classifies by the flag of a ReelstreamError: an error without it is not transient', () => {
    expect(isRetriable(new ReelstreamError('EVENT_NOT_READABLE', undefined, { retriable: false }))).toBe(false);
    expect(isRetriable(new ReelstreamError('SERVICE_UNAVAILABLE', undefined, { retriable: true }))).toBe(true);
    expect(isRetriable(new TypeError('bug'))).toBe(false);
    expect(isRetriable(undefined)).toBe(false);
    expect(isRetriable('a thrown string')).toBe(false);
  });

  it('reads no flag off a foreign object: a kafkajs-shaped error is translated by its adapter, not here', () => {
    expect(isRetriable(Object.assign(new Error('kafka'), { retriable: true }))).toBe(false);
    expect(isRetriable({ retriable: true })).toBe(false);
  });

  it('keeps its subclass, name and flag through a subclass, the way the error classes of the libs extend it', () => {
    class DemoTimeoutError extends ReelstreamError {
      override readonly name = 'DemoTimeoutError';
      constructor() {
        super('SERVICE_UNAVAILABLE', 'no answer within 5 ms', { retriable: true });
      }
    }
    const error = new DemoTimeoutError();
    expect(error).toBeInstanceOf(ReelstreamError);
    expect(error).toBeInstanceOf(DemoTimeoutError);
    expect([error.name, error.code, error.message, isRetriable(error)]).toEqual([
      'DemoTimeoutError',
      'SERVICE_UNAVAILABLE',
      'no answer within 5 ms',
      true,
    ]);
    expect(new ReelstreamError('INTERNAL', undefined, { retriable: false }).message).toBe(
      ErrorCatalogue.INTERNAL.message,
    );
  });

  it('carries a retry time from the refusal to the thrown error and back, retriable because of it', () => {
    const refused = refusal('SERVICE_UNAVAILABLE', 'the bonus service did not answer', { retryAfterSeconds: 2 });
    expect(refused).toEqual({
      type: 'Refusal',
      code: 'SERVICE_UNAVAILABLE',
      message: 'the bonus service did not answer',
      retriable: true,
      retryAfterSeconds: 2,
    });
    const error = RefusedError.from(refused);
    expect([error.retryAfterSeconds, error.retriable, error.status]).toEqual([2, true, 503]);
    expect(error.toRefusal()).toEqual(refused);
    expect(refusal('WALLET_UNAVAILABLE', undefined, { retryAfterSeconds: 5, retriable: false }).retriable).toBe(false);
  });

  it('makes a thrown refusal retriable when its status says "try again later", unless told otherwise', () => {
    expect(new RefusedError('RATE_LIMITED').retriable).toBe(true);
    expect(new RefusedError('SERVICE_UNAVAILABLE').retriable).toBe(true);
    expect(new RefusedError('BONUS_NOT_FOUND').retriable).toBe(false);
    expect(new RefusedError('BONUS_NOT_FOUND', undefined, { retryAfterSeconds: 1 }).retriable).toBe(true);
    expect(new RefusedError('SERVICE_UNAVAILABLE', undefined, { retriable: false }).retriable).toBe(false);
    expect(new RefusedError('BONUS_NOT_FOUND').status).toBe(404);
    expect(RefusedError.validation([{ path: 'a', message: 'b' }])).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: ErrorCatalogue.VALIDATION_FAILED.message,
      details: [{ path: 'a', message: 'b' }],
    });
  });

  it('tells a thrown refusal, with its code when asked, from any other error', () => {
    const refused = new RefusedError('SPIN_IN_PROGRESS');
    expect(isRefusedError(refused)).toBe(true);
    expect(isRefusedError(refused, 'SPIN_IN_PROGRESS')).toBe(true);
    expect(isRefusedError(refused, 'SESSION_EXPIRED')).toBe(false);
    expect(isRefusedError(new ReelstreamError('SPIN_IN_PROGRESS', undefined, { retriable: false }))).toBe(false);
    expect(isRefusedError(new Error('SPIN_IN_PROGRESS'))).toBe(false);
  });
});

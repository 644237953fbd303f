import { describe, expect, it } from '@jest/globals';
import { ErrorCatalogue } from './errors.js';
import { isRefusal, isRetriable, ReelstreamError, refusal } from './reelstream-error.js';
import { UnknownEventTypeError } from '../events/upcasting.js';
import { OperatorsConfigError } from '../operators.js';

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
    const error = ReelstreamError.from(refused);
    expect(error).toBeInstanceOf(Error);
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

  it('gives the unreadable-event and configuration errors their code and no retry, keeping their names for logs', () => {
    const unknown = new UnknownEventTypeError('Nope');
    expect([unknown.name, unknown.code, unknown.retriable]).toEqual([
      'UnknownEventTypeError',
      'EVENT_NOT_READABLE',
      false,
    ]);
    const config = new OperatorsConfigError('operators.json', ['operators[0].id: required']);
    expect([config.name, config.code, isRetriable(config)]).toEqual([
      'OperatorsConfigError',
      'CONFIGURATION_INVALID',
      false,
    ]);
  });
});

/**
 * kafkajs's `retriable` is read at the adapter's edge only: a port call that fails on a kafkajs error
 * rejects with a ReelstreamError that carries the flag of the cause kafkajs gave up on.
 */
import { describe, expect, it } from '@jest/globals';
import kafkajs from 'kafkajs';
import { isRetriable, ReelstreamError } from '@reelstream/contracts';
import { fromKafkajs, isRetriableKafkaError } from '../src/kafka-errors.js';
import { tooLarge } from './protocol-errors.js';

const { KafkaJSConnectionError, KafkaJSNumberOfRetriesExceeded } = kafkajs;

const connectionLost = () => new KafkaJSConnectionError('Connection timeout');
const gaveUpOn = (error: Error) => new KafkaJSNumberOfRetriesExceeded(error, { retryCount: 5, retryTime: 300 });

describe('kafkajs errors at the edge of the Kafka adapter', () => {
  it('reads kafkajs flag on the error kafkajs gave up on, not on its retrier wrapper', () => {
    const exhausted = gaveUpOn(connectionLost());
    expect(exhausted.retriable).toBe(false);
    expect(isRetriableKafkaError(exhausted)).toBe(true);
    expect(isRetriableKafkaError(connectionLost())).toBe(true);
    expect(isRetriableKafkaError(tooLarge())).toBe(false);
    expect(isRetriableKafkaError(gaveUpOn(tooLarge()))).toBe(false);
  });

  it('reads no flag off what is not kafkajs', () => {
    expect(isRetriableKafkaError(Object.assign(new Error('kafka-shaped'), { retriable: true }))).toBe(false);
    expect(isRetriableKafkaError(undefined)).toBe(false);
  });

  it('turns a kafkajs error into a ReelstreamError with that flag and the kafkajs error as its cause', () => {
    const failure = fromKafkajs(gaveUpOn(connectionLost()));
    expect(failure).toBeInstanceOf(ReelstreamError);
    expect(isRetriable(failure)).toBe(true);
    const error = failure as ReelstreamError;
    expect([error.name, error.code, error.message]).toEqual([
      'KafkaUnavailableError',
      'SERVICE_UNAVAILABLE',
      'Kafka: Connection timeout',
    ]);
    expect(error.cause).toBeInstanceOf(KafkaJSNumberOfRetriesExceeded);
    expect(isRetriable(fromKafkajs(tooLarge()))).toBe(false);
  });

  it('leaves ours and foreign errors as they are', () => {
    const ours = new ReelstreamError('SERVICE_UNAVAILABLE', 'closed', { retriable: true });
    const bug = new TypeError('bug');
    expect(fromKafkajs(ours)).toBe(ours);
    expect(fromKafkajs(bug)).toBe(bug);
  });
});

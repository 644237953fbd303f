import { describe, expect, it } from '@jest/globals';
import type { KafkaMessage } from 'kafkajs';
import { BusHeaders } from '@reelstream/platform-ports';
import { deadLetterMessage, defaultDeadLetterTopic, describeFailure } from '../src/dead-letter.js';

describe('dead letters', () => {
  const record = {
    key: Buffer.from('player-9'),
    value: Buffer.from('{"command":"win","amount":500}'),
    timestamp: '1772359200000',
    attributes: 0,
    offset: '77',
    headers: { traceparent: Buffer.from('00-t-s-01'), 'x-kind': 'win' },
  } as KafkaMessage;

  it('parks on <topic>.dlq by default', () => {
    expect(defaultDeadLetterTopic('wallet.requests')).toBe('wallet.requests.dlq');
  });

  it('keeps the original key and value bytes and headers, and adds where and why it failed', () => {
    const parked = deadLetterMessage({
      topic: 'wallet.requests',
      partition: 4,
      record,
      reason: 'Error: operator unreachable',
      attempts: 5,
    });
    expect(parked.key).toBe(record.key);
    expect(parked.value).toBe(record.value);
    expect(parked.headers).toEqual({
      traceparent: '00-t-s-01',
      'x-kind': 'win',
      [BusHeaders.deadLetterReason]: 'Error: operator unreachable',
      [BusHeaders.deadLetterAttempts]: '5',
      [BusHeaders.originalTopic]: 'wallet.requests',
      [BusHeaders.originalPartition]: '4',
      [BusHeaders.originalOffset]: '77',
    });
  });

  it('describes a failure by name and message, bounded in length', () => {
    expect(describeFailure(new TypeError('amount is not a number'))).toBe('TypeError: amount is not a number');
    expect(describeFailure('plain string')).toBe('plain string');
    const long = describeFailure(new Error('x'.repeat(5_000)));
    expect(long.length).toBe(1_000);
    expect(long.endsWith('…')).toBe(true);
  });
});

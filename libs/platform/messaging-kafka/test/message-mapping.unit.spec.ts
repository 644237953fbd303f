import { describe, expect, it } from '@jest/globals';
import type { KafkaMessage } from 'kafkajs';
import { fromKafkaMessage, headersToStrings, nextCommitOffset, toKafkaMessage } from '../src/message-mapping.js';

/** A fetched record as kafkajs 2.2 hands it to `eachMessage` (types/index.d.ts, RecordBatchEntry). */
function record(fields: Partial<KafkaMessage> & { offset: string }): KafkaMessage {
  return {
    key: Buffer.from('player-1'),
    value: Buffer.from('{"bet":100}'),
    timestamp: '1772359200000',
    attributes: 0,
    headers: {},
    ...fields,
  } as KafkaMessage;
}

describe('outgoing records', () => {
  it('carries the key, the value as JSON text and the headers as strings', () => {
    expect(
      toKafkaMessage({
        key: 'player-1',
        value: { amount: 1250, currency: 'EUR' },
        headers: { traceparent: '00-a-b-01' },
      }),
    ).toEqual({
      key: 'player-1',
      value: '{"amount":1250,"currency":"EUR"}',
      headers: { traceparent: '00-a-b-01' },
    });
    expect(toKafkaMessage({ key: 'k', value: null })).toEqual({ key: 'k', value: 'null', headers: {} });
  });

  it('refuses a value JSON cannot carry', () => {
    expect(() => toKafkaMessage({ key: 'k', value: undefined })).toThrow(/no JSON value/);
    expect(() => toKafkaMessage({ key: 'k', value: 10n })).toThrow();
  });
});

describe('fetched records', () => {
  it('maps onto the port message: Buffer key, JSON value, string headers, decimal offset, ISO time', () => {
    const decoded = fromKafkaMessage(
      'wallet.requests',
      3,
      record({
        offset: '9007199254740993',
        headers: {
          'correlation-id': Buffer.from('c-1'),
          traceparent: '00-x-y-01',
          repeated: [Buffer.from('first'), Buffer.from('second')],
          absent: undefined,
        },
      }),
    );
    expect(decoded).toEqual({
      ok: true,
      message: {
        topic: 'wallet.requests',
        partition: 3,
        offset: '9007199254740993',
        key: 'player-1',
        value: { bet: 100 },
        headers: { 'correlation-id': 'c-1', traceparent: '00-x-y-01', repeated: 'second' },
        timestamp: '2026-03-01T10:00:00.000Z',
      },
    });
  });

  it('reads a null key as "" and a null value (a tombstone) as null', () => {
    const decoded = fromKafkaMessage('t', 0, record({ offset: '0', key: null, value: null }));
    expect(decoded.ok && decoded.message).toMatchObject({ key: '', value: null, headers: {} });
  });

  it('reports a value that is not JSON instead of handing it to a handler', () => {
    const decoded = fromKafkaMessage('t', 0, record({ offset: '5', value: Buffer.from('<xml/>') }));
    expect(decoded.ok).toBe(false);
    expect(!decoded.ok && decoded.reason).toMatch(/^value is not JSON/);
  });

  it('decodes UTF-8 in keys, values and headers', () => {
    const decoded = fromKafkaMessage(
      't',
      0,
      record({
        offset: '1',
        key: Buffer.from('hráč-1'),
        value: Buffer.from('"žluťoučký 🎰"'),
        headers: { note: Buffer.from('kůň') },
      }),
    );
    expect(decoded.ok && decoded.message).toMatchObject({
      key: 'hráč-1',
      value: 'žluťoučký 🎰',
      headers: { note: 'kůň' },
    });
  });

  it('converts header values to strings whatever form they arrive in', () => {
    expect(headersToStrings(undefined)).toEqual({});
    expect(headersToStrings({ a: 'text', b: Buffer.from('bytes'), c: [] })).toEqual({ a: 'text', b: 'bytes' });
  });
});

describe('commit offsets', () => {
  it('commits the offset after the handled one, exactly, beyond 2^53 too', () => {
    expect(nextCommitOffset('0')).toBe('1');
    expect(nextCommitOffset('41')).toBe('42');
    expect(nextCommitOffset('9007199254740992')).toBe('9007199254740993');
  });

  it('refuses what is not an offset', () => {
    for (const bad of ['', '-1', '1.5', 'abc']) expect(() => nextCommitOffset(bad)).toThrow(RangeError);
  });
});

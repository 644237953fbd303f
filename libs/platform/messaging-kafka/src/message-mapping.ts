import type { IHeaders, KafkaMessage, Message as KafkaOutgoingMessage } from 'kafkajs';
import type { Headers, Message, OutgoingMessage } from '@reelstream/platform-ports';

/** Header values arrive as Buffers (or arrays of them when a name repeats): the port's are strings, the last one winning. */
export function headersToStrings(headers: IHeaders | undefined): Headers {
  const result: Headers = {};
  for (const [name, raw] of Object.entries(headers ?? {})) {
    const value = Array.isArray(raw) ? raw.at(-1) : raw;
    if (value === undefined) continue;
    result[name] = Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
  }
  return result;
}

/**
 * The record kafkajs sends: the key for partitioning (unless the message names its partition), the value
 * as JSON text, the headers as strings.
 */
export function toKafkaMessage(message: OutgoingMessage): KafkaOutgoingMessage {
  const value = JSON.stringify(message.value);
  if (value === undefined) throw new TypeError(`message ${message.key} has no JSON value`);
  const headers: Record<string, string> = {};
  for (const [name, headerValue] of Object.entries(message.headers ?? {})) headers[name] = String(headerValue);
  return {
    key: message.key,
    value,
    headers,
    ...(message.partition === undefined ? {} : { partition: message.partition }),
  };
}

export type Decoded = { ok: true; message: Message } | { ok: false; reason: string };

function isoTimestamp(timestamp: string): string {
  const millis = Number(timestamp);
  return new Date(Number.isFinite(millis) ? millis : 0).toISOString();
}

/**
 * A fetched record as the port's `Message`. A null key reads as `''`, a null value (a tombstone) as
 * `null`; a value that is not JSON cannot reach a handler and is reported so the consumer parks it.
 */
export function fromKafkaMessage(topic: string, partition: number, record: KafkaMessage): Decoded {
  let value: unknown = null;
  if (record.value !== null) {
    try {
      value = JSON.parse(record.value.toString('utf8'));
    } catch (error) {
      return { ok: false, reason: `value is not JSON: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  return {
    ok: true,
    message: {
      topic,
      partition,
      offset: record.offset,
      key: record.key === null ? '' : record.key.toString('utf8'),
      value,
      headers: headersToStrings(record.headers),
      timestamp: isoTimestamp(record.timestamp),
    },
  };
}

/**
 * The offset to commit once the record at `offset` is done: Kafka stores the next offset to read, not
 * the last one read (kafkajs' own `resolveOffset` adds the same 1).
 */
export function nextCommitOffset(offset: string): string {
  if (!/^\d+$/.test(offset)) throw new RangeError(`not a Kafka offset: ${JSON.stringify(offset)}`);
  return (BigInt(offset) + 1n).toString();
}

import type { KafkaMessage, Message as KafkaOutgoingMessage } from 'kafkajs';
import { BusHeaders } from '@reelstream/platform-ports';
import { headersToStrings } from './message-mapping.js';

export function defaultDeadLetterTopic(topic: string): string {
  return `${topic}.dlq`;
}

const MAX_REASON_LENGTH = 1_000;

/** A failure as one line for the dead-letter header: the error's name and message, bounded in length. */
export function describeFailure(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > MAX_REASON_LENGTH ? `${text.slice(0, MAX_REASON_LENGTH - 1)}…` : text;
}

export interface DeadLetterInput {
  topic: string;
  partition: number;
  record: KafkaMessage;
  reason: string;
  /** How many times the handler ran; 0 when the record could not even be decoded. */
  attempts: number;
}

/**
 * The record parked on the dead-letter topic: the original key and value bytes untouched (so it can be
 * re-driven as it was, on the same key's partition), the original headers, and where and why it failed.
 */
export function deadLetterMessage({
  topic,
  partition,
  record,
  reason,
  attempts,
}: DeadLetterInput): KafkaOutgoingMessage {
  return {
    key: record.key,
    value: record.value,
    headers: {
      ...headersToStrings(record.headers),
      [BusHeaders.deadLetterReason]: reason,
      [BusHeaders.deadLetterAttempts]: String(attempts),
      [BusHeaders.originalTopic]: topic,
      [BusHeaders.originalPartition]: String(partition),
      [BusHeaders.originalOffset]: record.offset,
    },
  };
}

/**
 * Messaging attribute names of the OpenTelemetry semantic conventions (1.45). They live in the
 * package's `incubating` entry point, which may change in a minor release, so, as its README
 * recommends, the few we use are copied here instead of imported.
 */
export const MessagingAttributes = {
  system: 'messaging.system',
  destinationName: 'messaging.destination.name',
  partitionId: 'messaging.destination.partition.id',
  operationName: 'messaging.operation.name',
  operationType: 'messaging.operation.type',
  batchMessageCount: 'messaging.batch.message_count',
  consumerGroupName: 'messaging.consumer.group.name',
  conversationId: 'messaging.message.conversation_id',
  kafkaMessageKey: 'messaging.kafka.message.key',
  kafkaOffset: 'messaging.kafka.offset',
  /** Not in the conventions (Kafka has no delivery count): the port's `ConsumerContext.attempt`. */
  deliveryAttempt: 'reelstream.messaging.delivery_attempt',
} as const;

/** Attributes of the event-store spans; the conventions define none for event stores. */
export const EventStoreAttributes = {
  streamId: 'reelstream.eventstore.stream_id',
  eventCount: 'reelstream.eventstore.event_count',
  eventTypes: 'reelstream.eventstore.event_types',
  expectedRevision: 'reelstream.eventstore.expected_revision',
  nextExpectedRevision: 'reelstream.eventstore.next_expected_revision',
  position: 'reelstream.eventstore.position',
} as const;

/** `error.type` is stable in the conventions. */
export const ATTR_ERROR_TYPE = 'error.type';

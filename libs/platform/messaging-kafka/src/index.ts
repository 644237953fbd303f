export {
  openKafkaMessageBus,
  kafkaSettings,
  DEFAULT_SESSION_TIMEOUT_MS,
  DEFAULT_HANDLER_TIMEOUT_MS,
  KAFKA_ENV,
  type KafkaMessageBusOptions,
} from './open.js';
export { KafkaMessageBus, BusClosedError, replyGroupId } from './kafka-message-bus.js';
export { parseKafkaUrl, parseBrokerList, InvalidKafkaUrlError, DEFAULT_KAFKA_PORT } from './kafka-url.js';
export { defaultDeadLetterTopic } from './dead-letter.js';
export {
  DEFAULT_PARTITIONS,
  DEFAULT_MAX_REPLICATION_FACTOR,
  DEFAULT_MIN_INSYNC_REPLICAS,
  defaultTopicSettings,
} from './topics.js';
export { HandlerTimeoutError } from './keep-alive.js';

export { openKafkaMessageBus, DEFAULT_SESSION_TIMEOUT_MS, type KafkaMessageBusOptions } from './open.js';
export { KafkaMessageBus, BusClosedError, replyGroupId } from './kafka-message-bus.js';
export { parseKafkaUrl, parseBrokerList, InvalidKafkaUrlError, DEFAULT_KAFKA_PORT } from './kafka-url.js';
export { defaultDeadLetterTopic } from './dead-letter.js';
export { DEFAULT_PARTITIONS, DEFAULT_REPLICATION_FACTOR } from './topics.js';

export { openKafkaMessageBus, kafkaSettings, type KafkaMessageBusOptions } from './open.js';
export { kafkaLogCreator, type KafkaLog } from './log.js';
export { parseKafkaUrl, parseBrokerList, InvalidKafkaUrlError } from './kafka-url.js';
export { defaultTopicSettings, MISSING_TOPIC_WAIT_MS } from './topics.js';
export { topicsMain } from './topics-cli.js';

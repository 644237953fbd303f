export { SqliteMessageBus, type SqliteMessageBusOpenOptions } from './sqlite-message-bus.js';
export { SqliteConsumer, type SqliteSubscribeOptions } from './consumer.js';
export type { SqliteMessageBusOptions } from './options.js';
export { murmur2, partitionFor } from './partitioner.js';

export { SqliteMessageBus } from './sqlite-message-bus.js';
export type { SqliteMessageBusOptions } from './options.js';
export { murmur2, partitionFor } from './partitioner.js';

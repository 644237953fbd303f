export * from './event-store.js';
export * from './checkpoints.js';
export * from './message-bus.js';
export * from './clock.js';
export * from './id-generator.js';
export * from './leases.js';
export * from './event-store-arguments.js';
export * from './polling-subscription.js';

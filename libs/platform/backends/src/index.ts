export * from './event-store.js';
export * from './message-bus.js';

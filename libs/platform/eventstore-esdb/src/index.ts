export { openEsdbEventStore, type OpenedEsdbEventStore } from './open.js';
export { EsdbEventStore } from './esdb-event-store.js';
export { EsdbCheckpointStore } from './checkpoints.js';
export { validateConnectionString, InvalidConnectionStringError } from './connection-string.js';
export { InvalidPositionError } from './position.js';
export { MissingPositionError } from './recorded-event.js';
export { SubscriptionDroppedError } from './subscription.js';

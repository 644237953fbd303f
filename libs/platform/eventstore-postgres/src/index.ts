export { PostgresEventStore } from './postgres-event-store.js';
export { parsePostgresUrl } from './connection.js';
export { openPostgresEventStore } from './open.js';
export { TransactionIdsBehindError } from './schema.js';

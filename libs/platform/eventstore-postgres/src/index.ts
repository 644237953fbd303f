export { PostgresEventStore, type PostgresEventStoreOptions } from './postgres-event-store.js';
export { PostgresCheckpointStore } from './checkpoints.js';
export { PostgresLeaseStore, type PostgresLeaseStoreOptions } from './leases.js';
export { parsePostgresUrl, InvalidPostgresUrlError, type PostgresUrl } from './connection.js';
export { DuplicateEventIdError, EventStoreClosedError, PostgresUnreachableError } from './errors.js';
export { comparePostgresPositions, formatPostgresPosition, NotAPostgresPositionError } from './positions.js';
export { openPostgresEventStore, type OpenedPostgresEventStore } from './open.js';
export { TransactionIdsBehindError } from './schema.js';
export { UnsettledReadError } from './event-reader.js';

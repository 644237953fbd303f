export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite-event-store.js';
export { SqliteCheckpointStore, ensureCheckpointSchema, readCheckpoint, writeCheckpoint } from './checkpoints.js';
export { DuplicateEventIdError, CorruptEventError, EventStoreClosedError } from './errors.js';
export { compareDecimalPositions } from './positions.js';
export { backupSqlite } from './backup.js';
export { SqliteLeaseStore } from './leases.js';
export { TimeOrderedUuids } from './event-ids.js';
export { openReadOnlyEventStore, NotAnEventStoreFileError } from './read-only-event-store.js';
export { openReadModelFile } from './read-model-file.js';

export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite-event-store.js';
export type { CommitStats } from './group-commit.js';
export {
  SqliteCheckpointStore,
  CHECKPOINTS_DDL,
  ensureCheckpointSchema,
  readCheckpoint,
  writeCheckpoint,
  type ComparePositions,
  type SqliteCheckpointStoreOptions,
} from './checkpoints.js';
export { DuplicateEventIdError, CorruptEventError, EventStoreClosedError } from './errors.js';
export { compareDecimalPositions } from './positions.js';

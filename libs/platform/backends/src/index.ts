export {
  parseSqliteEventStoreUrl,
  parsePostgresEventStoreUrl,
  openEventStore,
  type OpenedEventStore,
} from './event-store.js';
export { openMessageBus, parseSqliteBusUrl } from './message-bus.js';

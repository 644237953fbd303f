export { describeEventStoreContract } from './describe-event-store-contract.js';
export type { EventStoreUnderTest } from './under-test.js';
export {
  compareEsdbShapedPositions,
  decodeEsdbShapedPosition,
  encodeEsdbShapedPosition,
  esdbShapedCheckpoints,
  ESDB_POSITIONS_SCHEME,
  openTestEventStore,
  withEsdbShapedPositions,
} from './esdb-positions.js';
export { describeEventStoreClusterContract } from './cluster.contract.js';

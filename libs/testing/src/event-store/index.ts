export { describeEventStoreContract } from './describe-event-store-contract.js';
export {
  decodeEsdbShapedPosition,
  encodeEsdbShapedPosition,
  ESDB_POSITIONS_SCHEME,
  openTestEventStore,
} from './esdb-positions.js';
export { describeEventStoreClusterContract } from './cluster.contract.js';

export {
  describeMessageBusContract,
  describeMessageBusClusterContract,
  eventually,
  WorkerProcess,
  type MessageBusUnderTest,
  type MessageBusClusterUnderTest,
  type ClusterBusOptions,
  type WorkerExit,
} from './message-bus/index.js';
export {
  describeEventStoreContract,
  describeEventStoreClusterContract,
  compareEsdbShapedPositions,
  decodeEsdbShapedPosition,
  encodeEsdbShapedPosition,
  esdbShapedCheckpoints,
  ESDB_POSITIONS_SCHEME,
  openTestEventStore,
  withEsdbShapedPositions,
  type EventStoreUnderTest,
} from './event-store/index.js';
export {
  deciderSpecification,
  type DeciderSpecification,
  type DeciderSpecificationOptions,
  type DeciderGiven,
  type DeciderThen,
} from './decider-spec.js';
export { recordWinSource } from './win-sources.js';

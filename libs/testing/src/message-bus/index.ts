export { describeMessageBusContract } from './describe-message-bus-contract.js';
export type { MessageBusUnderTest } from './under-test.js';
export { eventually } from './eventually.js';
export { WorkerProcess, type WorkerExit } from './worker-process.js';
export {
  describeMessageBusClusterContract,
  type MessageBusClusterUnderTest,
  type ClusterBusOptions,
} from './cluster.contract.js';

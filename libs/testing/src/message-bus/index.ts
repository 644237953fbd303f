export { describeMessageBusContract } from './describe-message-bus-contract.js';
export { eventually } from './eventually.js';
export { WorkerProcess } from './worker-process.js';
export { describeMessageBusClusterContract } from './cluster.contract.js';

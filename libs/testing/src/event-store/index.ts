export { describeEventStoreContract } from './describe-event-store-contract.js';
export type { EventStoreUnderTest } from './under-test.js';
export { describeEventStoreClusterContract } from './cluster.contract.js';

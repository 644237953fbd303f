export { describeMessageBusContract, eventually, WorkerProcess, type MessageBusUnderTest, type WorkerExit } from './message-bus/index.js';
export { describeEventStoreContract, type EventStoreUnderTest } from './event-store/index.js';
export { deciderSpecification, type Decider, type DeciderSpecification, type DeciderGiven, type DeciderThen } from './decider-spec.js';
export { recordWinSource } from './win-sources.js';

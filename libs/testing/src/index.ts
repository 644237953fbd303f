export {
  describeMessageBusContract,
  describeMessageBusClusterContract,
  eventually,
  WorkerProcess,
} from './message-bus/index.js';
export {
  describeEventStoreContract,
  describeEventStoreClusterContract,
  decodeEsdbShapedPosition,
  encodeEsdbShapedPosition,
  ESDB_POSITIONS_SCHEME,
  openTestEventStore,
} from './event-store/index.js';
export { deciderSpecification } from './decider-spec.js';
export { recordWinSource } from './win-sources.js';
export { betwinOutcome, recordStakeSource } from './stake-sources.js';
export { chromiumAvailable, launchChromium } from './chromium.js';
export {
  gameSessionStarted,
  LAUNCH_REQUEST,
  paidRoundBet,
  paidRoundStarted,
  paidRoundWin,
  SESSION_TOKEN,
} from './game-fixtures.js';
export { sampleBetRequest } from './wallet-fixtures.js';
export { sampleBonusCall } from './bonus-fixtures.js';
export { describeLeaseContract, type LeaseStoreUnderTest } from './leases/describe-lease-contract.js';
export { installCollectingMeter } from './metrics.js';
export { freePort, httpStatus } from './net.js';
export { catchUpWhileAppending, gapsOf } from './event-store/position-gap.js';
export { postgresForTests, postgresNotice, type PostgresForTests } from './postgres.js';
export { findPgBouncer, startPgBouncer, type PgBouncerForTests } from './pgbouncer.js';

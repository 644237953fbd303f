/**
 * @reelstream/bonus-application: the bonus-ledger's use cases against the ports — command
 * handling (read → decide → append, retried on conflict), idempotent registration (D17), queries,
 * the status projection, the expiry scheduler and the outbox relay.
 */
export * from './ports.js';
export { loadPlayerAccount, toPlayerBonusEvent, UnexpectedEventError, type LoadedAccount } from './player-account.js';
export { decideAndAppend, type CommandOrigin, type Decided } from './decide-and-append.js';
export { readGuard, reserveGuard, type GuardRecord } from './registration-guard.js';
export { BonusCommands, type BonusCommandsDeps } from './bonus-commands.js';
export { BonusQueries, type ProjectionProgress } from './bonus-queries.js';
export { encodeListCursor, decodeListCursor } from './list-cursor.js';
export { projectBonusCall, ProjectionOrderError } from './bonus-record-projection.js';
export {
  startBonusProjection,
  projectionChange,
  ProjectionLagError,
  PLAYER_BONUS_FILTER,
  type BonusProjection,
  type BonusProjectionOptions,
} from './projection-runner.js';
export { ExpiryScheduler, type ExpirySchedulerOptions } from './expiry-scheduler.js';
export { startBonusRelay, type BonusRelayOptions } from './relay.js';
export { BonusRequestHandler, type AnyBonusReply, type HandledRequest } from './request-handler.js';

/**
 * @reelstream/game-application: the game context's use cases — spins (paid, free, demo), round
 * resolution, the round outbox, session start and lookup — over the round and session deciders of
 * @reelstream/game-domain, with ports for the wallet, the bonus-ledger, the RNG and the clock.
 */
export type { WalletPort, LedgerPort, GameLog, StakeRequest, BonusRequestData } from './ports.js';
export { GameRefusedError, isRefused } from './refused.js';
export { GameTable, type TableGame } from './game-table.js';
export { InFlightRounds, type RoundDeps } from './rounds/round-deps.js';
export { RoundStreams, RoundConflictError, type RoundHistory, type FinishedRound } from './rounds/round-streams.js';
export { resolveRound, type Resolution } from './rounds/round-resolver.js';
export {
  ROUND_OUTBOX_CHECKPOINT,
  startRoundOutbox,
  type RoundOutbox,
  type RoundOutboxOptions,
} from './rounds/round-outbox.js';
export { heldCheckpoints, type HoldBack } from './rounds/held-checkpoints.js';
export { outcomeView } from './rounds/outcome-view.js';
export { SpinService, type SpinServiceDeps } from './rounds/spin-service.js';
export { BalanceBook } from './sessions/balance-book.js';
export { SessionRepository, type GameSession } from './sessions/session-repository.js';
export { SpinLocks } from './sessions/spin-locks.js';
export { activeBonusOf } from './sessions/active-bonus.js';
export { startGameSession, type StartSessionDeps, type LaunchingOperator } from './sessions/start-session.js';

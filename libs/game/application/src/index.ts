/**
 * @reelstream/game-application: the game context's use cases — spins (paid, free, demo), round
 * resolution, the round outbox, session start and lookup — over the round and session deciders of
 * @reelstream/game-domain, with ports for the wallet, the bonus-ledger, the RNG and the clock.
 */
export type { WalletPort, PlayerBonusPort, StakeRequest } from './ports.js';
export { GameTable } from './game-table.js';
export { InFlightRounds, type RoundDeps } from './rounds/round-deps.js';
export { RoundStreams, RoundConflictError, type RoundStartedData } from './rounds/round-streams.js';
export { resolveRound } from './rounds/round-resolver.js';
export { ROUND_OUTBOX_CHECKPOINT, startRoundOutbox, type RoundOutbox } from './rounds/round-outbox.js';
export { outcomeView } from './rounds/outcome-view.js';
export { balanceView, SpinService } from './rounds/spin-service.js';
export { BalanceBook, type ImplausibleBalanceSeen } from './sessions/balance-book.js';
export { walletRepliesIn } from './sessions/wallet-replies.js';
export { SessionRepository } from './sessions/session-repository.js';
export { SpinClaims } from './sessions/spin-claims.js';
export { activeBonusOf } from './sessions/active-bonus.js';
export { startGameSession } from './sessions/start-session.js';

/**
 * @reelstream/bonus-application: the bonus context's use cases against the ports — command
 * handling (read → decide → append, retried on conflict), idempotent registration (D17), free and
 * steered spins, queries, the status projection, the expiry scheduler and the outbox relay. Each
 * command takes its data and who asks (`CommandOrigin`) and answers its result or a refusal; bus
 * envelopes exist only at the bus edge, in the bonus-ledger service and the bonus client.
 */
export * from './ports.js';
export { catalogLookup } from './catalog-lookup.js';
export { reserveGuard } from './registration-guard.js';
export { BonusCommands } from './bonus-commands.js';
export { Registrations, type RegistrationKey, type RegisterBonusCallData, type Registered } from './registrations.js';
export { currencyRefusal, registrationRefusal, registrationRequestHash } from './registration-refusal.js';
export type { CommandOrigin } from './command-origin.js';
export { BonusQueries } from './bonus-queries.js';
export { FreeSpins } from './free-spins.js';
export { RegularSpins, type SteeredSpinDecision } from './regular-spins.js';
export { encodeListCursor, decodeListCursor } from './list-cursor.js';
export { bonusCallRecordOf, projectBonusCall, ProjectionOrderError } from './bonus-record-projection.js';
export { startBonusProjection, projectionChange, PLAYER_BONUS_FILTER } from './projection-runner.js';
export { ExpiryScheduler } from './expiry-scheduler.js';
export { BONUS_RELAY_CHECKPOINT, startBonusRelay } from './relay.js';
export { startCampaign, campaignResend, loadCampaign, campaignProgressOf } from './campaigns.js';
export { CAMPAIGN_WORKER_LEASE, startCampaignWorker } from './campaign-worker.js';

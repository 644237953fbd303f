// Public API of @reelstream/game-domain: the catalog checked against its models, the slot and instant engines, RNG
// port, replay and RTP math. Pure: no I/O, no clock, no ambient randomness.
export * from './profile.js';
export * from './model-error.js';
export * from './rng/rng.js';
export * from './rng/seeded-rng.js';
export { RecordingRng, ReplayRng, ReplayError } from './rng/recorded-rng.js';
export * from './coins.js';
export * from './win-cap.js';
export * from './game-model.js';
export type { SlotModel } from './slot/slot-model.js';
export { slotRtp } from './slot/slot-rtp.js';
export { compileSlot } from './slot/compiled-slot.js';
export * from './round/round-outcome.js';
export * from './round/round-record-schema.js';
export { playRound, replayRound, verifyRound, UnknownModelError } from './round/play-round.js';
export { simulate, theoreticalRtp } from './simulate.js';
export { gameModels, findModel } from './models/registry.js';
export * from './catalog/catalog.js';
export * from './round/stored-record.js';
export * from './round/round-decider.js';
export * from './round/spin-rules.js';
export * from './round/wallet-requests.js';
export * from './session/session-decider.js';
export * from './session/round-access.js';
export * from './round/steered-outcome.js';
export * from './round/simulate-regular-bonus.js';
export * from './session/plausible-balance.js';

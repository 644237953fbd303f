// Public API of @reelstream/game-domain: the game catalog, the slot and instant engines, RNG
// port, replay and RTP math. Pure: no I/O, no clock, no ambient randomness.
export * from './profile.js';
export * from './model-error.js';
export * from './rng/rng.js';
export * from './rng/seeded-rng.js';
export { RecordingRng, ReplayRng, ReplayError, type ReplayErrorCode } from './rng/recorded-rng.js';
export * from './coins.js';
export * from './win-cap.js';
export * from './game-model.js';
export type { SlotModel, SlotSymbol, SlotProfile, BonusRule } from './slot/slot-model.js';
export type { InstantModel, WheelProfile, WheelSegment } from './instant/instant-model.js';
export { evaluateLine, type LinePay, type LineRules } from './slot/line-evaluation.js';
export { slotRtp, type SlotRtpBreakdown } from './slot/slot-rtp.js';
export { compileSlot, type CompiledSlot } from './slot/compiled-slot.js';
export * from './round/round-outcome.js';
export * from './round/round-record-schema.js';
export {
  playRound,
  replayRound,
  verifyRound,
  UnknownModelError,
  type PlayRoundInput,
  type RoundVerification,
} from './round/play-round.js';
export { simulate, theoreticalRtp } from './simulate.js';
export type { SimulationResult } from './simulation-tally.js';
export { gameModels, findModel } from './models/registry.js';
export * from './catalog/catalog-schema.js';
export * from './catalog/catalog.js';
export * from './refusal.js';
export * from './round/stored-record.js';
export * from './round/round-decider.js';
export * from './round/spin-rules.js';
export * from './round/wallet-requests.js';
export * from './session/session-decider.js';
export * from './session/round-access.js';

/**
 * @reelstream/bonus-domain: the rules of bonus calls (spec §1, §3, §4.1–4.2, §8; decisions.md D3–D6,
 * D10, D14, D17, D20) as pure deciders over the player's bonus account and the platformId guard.
 * No I/O, no clock.
 */
export * from './commands.js';
export * from './state.js';
export * from './terms.js';
export * from './registration-terms.js';
export { bonusDecider } from './decide.js';
export { completedBySpin, completionReasonOf } from './decide-free-spin.js';
export * from './refuse-registration.js';
export * from './registration-guard.js';
export * from './free-spin-win.js';
export * from './request-hash.js';
export * from './campaign.js';

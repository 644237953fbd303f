/**
 * @reelstream/bonus-domain: the rules of bonus calls (spec §1, §3, §4.1–4.2, §8; DESIGN D3, D4,
 * D12, D14, D20) as a pure decider over the player's bonus account. No I/O, no clock.
 */
export * from './commands.js';
export * from './state.js';
export * from './terms.js';
export * from './registration-terms.js';
export { bonusDecider } from './decide.js';
export * from './refuse-registration.js';
export * from './registration-guard.js';

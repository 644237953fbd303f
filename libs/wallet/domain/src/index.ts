/**
 * @reelstream/wallet-domain: the rules of wallet callbacks, pure. The delivery policy per command
 * (time limits, attempts, cancel or dead letter), the walletTx decider (evolve/decide), what the
 * record says to do next, the callback bodies (D9, D22) and what their signature covers (D8). No
 * I/O: the HMAC and HTTP live in @reelstream/wallet-adapters.
 */
export * from './answer.js';
export * from './callback-body.js';
export * from './commands.js';
export * from './decide.js';
export * from './errors.js';
export * from './evolve.js';
export * from './next-step.js';
export * from './policy.js';
export * from './same-request.js';
export * from './signed-content.js';
export * from './win-source.js';
export * from './state.js';
export * from './unreadable-record.js';

/**
 * @reelstream/contracts: zod schemas and inferred types of everything that crosses a process
 * boundary — API v1, wallet callbacks, bus commands/replies, domain events, topics, headers,
 * operator configuration. Pure: imports only zod and @reelstream/money.
 */
export * from './api/bonus-call.js';
export * from './api/bonus-status.js';
export * from './api/catalog.js';
export * from './api/envelope.js';
export * from './api/errors.js';
export * from './api/reelstream-error.js';
export * from './api/launch.js';
export * from './api/player-api.js';
export * from './api/schemas.js';
export * from './callbacks/reply.js';
export * from './callbacks/requests.js';
export * from './commands/bonus-record.js';
export * from './commands/bonus-replies.js';
export * from './commands/bonus.js';
export * from './commands/metadata.js';
export * from './commands/wallet.js';
export * from './events/bonus-event-message.js';
export * from './events/bonus.js';
export * from './events/metadata.js';
export * from './events/round.js';
export * from './events/session.js';
export * from './events/streams.js';
export * from './events/upcasting.js';
export * from './events/wallet.js';
export * from './headers.js';
export * from './operators.js';
export * from './shared/ids.js';
export * from './shared/primitives.js';
export * from './shared/sha256.js';
export * from './shared/canonical-json.js';
export * from './shared/issues.js';
export * from './time.js';
export * from './topics.js';

export * from './log-events.js';
export * from './projections.js';
export * from './replay.js';
export * from './time-range.js';
export * from './formats.js';
export * from './catalog-facts.js';
export * from './audit-index.js';
